package informer

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// dumpGroups renders the store's group summary, values sorted, groups in
// their order.
func dumpGroups(s *Store) string {
	values := make([]string, 0, len(s.groups.byValue))
	for v := range s.groups.byValue {
		values = append(values, v)
	}
	sort.Strings(values)
	var b strings.Builder
	for _, v := range values {
		fmt.Fprintf(&b, "group %s:", v)
		for _, g := range s.groups.byValue[v] {
			fmt.Fprintf(&b, " {%v state=%d tag=%s n=%d}", g.Labels, g.State, g.Tag, g.Count)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// recountGroups counts the cached objects afresh, without the entries'
// remembered signature and state: value -> "labels|state" -> count.
func recountGroups(s *Store, index IndexFunc, classify Classifier) map[string]map[string]int {
	out := map[string]map[string]int{}
	s.objects.Range(func(_ string, e *entry) bool {
		for _, v := range index(e.obj) {
			if out[v] == nil {
				out[v] = map[string]int{}
			}
			f := classify(e.obj)
			out[v][fmt.Sprintf("%v|%d|%s", e.obj.GetLabels(), f.State, f.Tag)]++
		}
		return true
	})
	return out
}

// summaryCounts renders the store's summary like recountGroups, and fails
// on an empty group, a repeated group, or a group whose labels disagree
// with its signature.
func summaryCounts(t *testing.T, s *Store) map[string]map[string]int {
	t.Helper()
	out := map[string]map[string]int{}
	for v, gs := range s.groups.byValue {
		if len(gs) == 0 {
			t.Fatalf("value %s kept without groups", v)
		}
		out[v] = map[string]int{}
		for _, g := range gs {
			k := fmt.Sprintf("%v|%d|%s", g.Labels, g.State, g.Tag)
			if g.Count <= 0 || out[v][k] != 0 || labelSignature(g.Labels) != g.sig {
				t.Fatalf("value %s: bad group %+v", v, g)
			}
			out[v][k] = g.Count
		}
	}
	return out
}

// podState is a test classifier: phase ordinal, plus 8 when deleting;
// tagged with the node.
func podState(o apiserver.Object) Facts {
	p := o.(*corev1.Pod)
	st := map[corev1.PodPhase]uint8{corev1.PodPending: 1, corev1.PodRunning: 2, corev1.PodSucceeded: 3}[p.Status.Phase]
	if p.DeletionTimestamp != nil {
		st |= 8
	}
	return Facts{State: st, Tag: p.Spec.NodeName, Nums: [7]int64{int64(len(p.Status.Phase)), int64(len(p.Labels))}}
}

// The group summary of the owner index stays equal to a recount from the
// cached objects through adds, status updates, label changes, owner
// changes (adoption, release, another owner) and deletes.
func TestGroupsEqualRecountAfterChanges(t *testing.T) {
	s := newStore(map[string]IndexFunc{PodControllerIndex: PodControllerIndexFunc}, nil)
	if !s.Summarize(PodControllerIndex, podState) {
		t.Fatal("Summarize refused the owner index")
	}
	if s.Summarize("missing", podState) || !s.Summarized(PodControllerIndex) {
		t.Fatal("Summarize of a missing index must be refused and keep the summary")
	}
	owner := func(name string) []metav1.OwnerReference {
		if name == "" {
			return nil
		}
		yes := true
		return []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name, UID: types.UID("u-" + name), Controller: &yes}}
	}
	phases := []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded}
	now := metav1.Now()
	rv := 0
	for step := 0; step < 400; step++ {
		name := fmt.Sprintf("p%d", (step*7)%19)
		ns := []string{"default", "other"}[(step/19)%2]
		key := ns + "/" + name
		rv++
		if step%11 == 10 {
			s.remove(key)
		} else {
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
				Namespace: ns, Name: name, ResourceVersion: fmt.Sprint(rv),
				Labels:          map[string]string{"app": "web", "hash": fmt.Sprint(step % 3)},
				OwnerReferences: owner([]string{"", "a", "b"}[(step/3)%3]),
			}}
			if step%4 == 0 {
				p.Labels = nil
			}
			if p.Labels != nil && step%13 == 1 {
				p.Labels["extra"] = "x"
			}
			p.Status.Phase = phases[step%3]
			p.Spec.NodeName = []string{"", "n1", "n2"}[(step/2)%3]
			if step%5 == 0 {
				p.DeletionTimestamp = &now
			}
			s.put(p)
		}
		got, want := summaryCounts(t, s), recountGroups(s, PodControllerIndexFunc, podState)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("step %d (%s): summary %v, recount %v", step, key, got, want)
		}
		// Every object's kept facts are its classifier's answer.
		for v := range s.indices[PodControllerIndex] {
			s.EachByIndexFacts(PodControllerIndex, v, func(o apiserver.Object, f *Facts) {
				if *f != podState(o) {
					t.Fatalf("step %d: %s keeps facts %+v, classifier says %+v", step, KeyOf(o), *f, podState(o))
				}
			})
		}
	}
	// EachGroup answers the same groups, for the summarized index only.
	var n int
	s.EachGroup(PodControllerIndex, "default", func(g Group) { n += g.Count })
	if want := s.CountByIndex(PodControllerIndex, "default"); n != want {
		t.Errorf("EachGroup counts %d orphans of default, the index holds %d", n, want)
	}
	s.EachGroup("missing", "default", func(Group) { t.Error("EachGroup answered for an unsummarized index") })
	s.EachByIndexFacts("missing", "default", func(apiserver.Object, *Facts) { t.Error("EachByIndexFacts answered for an unsummarized index") })
}

// Summarize on a filled store counts what is already cached, and a
// checkpoint saved before Summarize restores into correct counts.
func TestSummarizeLateAndRestoreOfUnsummarizedCheckpoint(t *testing.T) {
	byOwner := func(o apiserver.Object) []string { return []string{o.GetLabels()["owner"]} }
	s := newStore(map[string]IndexFunc{"owner": byOwner}, nil)
	churn(s, 0)
	plain := s.checkpoint()
	churn(s, 1)
	s.Summarize("owner", podState)
	check := func(when string) {
		t.Helper()
		if got, want := summaryCounts(t, s), recountGroups(s, byOwner, podState); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: summary %v, recount %v", when, got, want)
		}
	}
	check("after Summarize")
	s.restore(&plain)
	check("after restoring a checkpoint without groups")
	churn(s, 2)
	check("after churn")
}

// With a group summary, a checkpoint restores the groups and each entry's
// counted signature and state, and the restored store keeps counting.
func TestStoreCheckpointRestoresGroups(t *testing.T) {
	byOwner := func(o apiserver.Object) []string { return []string{o.GetLabels()["owner"]} }
	newSummarized := func() *Store {
		s := newStore(map[string]IndexFunc{"owner": byOwner}, nil)
		s.Summarize("owner", podState)
		return s
	}
	s := newSummarized()
	churn(s, 0)
	saved := s.checkpoint()
	want := dumpStore(t, s)
	for r := 1; r < 5; r++ {
		churn(s, r)
		s.restore(&saved)
		if got := dumpStore(t, s); got != want {
			t.Fatalf("restore after round %d:\n%s\nwant:\n%s", r, got, want)
		}
		churn(s, r+10)
		twin := newSummarized()
		twin.restore(&saved)
		churn(twin, r+10)
		if a, b := dumpStore(t, s), dumpStore(t, twin); a != b {
			t.Fatalf("after restore and round %d:\n%s\nfresh store restored likewise:\n%s", r+10, a, b)
		}
		if got, want := summaryCounts(t, s), recountGroups(s, byOwner, podState); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: summary %v, recount %v", r, got, want)
		}
		s.restore(&saved)
	}
}

func TestLabelSignature(t *testing.T) {
	for _, c := range []struct {
		l    map[string]string
		want string
	}{
		{nil, ""},
		{map[string]string{}, ""},
		{map[string]string{"a": "1"}, "a\x001\x00"},
		{map[string]string{"b": "2", "a": "1"}, "a\x001\x00b\x002\x00"},
	} {
		if got := labelSignature(c.l); got != c.want {
			t.Errorf("labelSignature(%v) = %q, want %q", c.l, got, c.want)
		}
	}
}
