package informer

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// scanList is List without the label buckets: the namespace scan.
func scanList(s *Store, ns string, sel labels.Selector) []string {
	var out []string
	s.byNamespace[ns].each(&s.entries, func(e *entry) {
		if sel.Matches(labels.Set(e.obj.GetLabels())) {
			out = append(out, e.key)
		}
	})
	return out
}

func listKeys(objs []apiserver.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, KeyOf(o))
	}
	return out
}

// TestListByLabelBucketMatchesScan relabels, re-adds and deletes objects and
// checks after every change that selector Lists answered from label buckets
// return exactly the namespace scan, in the same order.
func TestListByLabelBucketMatchesScan(t *testing.T) {
	s := newStore(nil, nil)
	obj := func(ns, name string, lbls map[string]string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls}}
	}
	selectors := []string{"app=web", "app=web,hash=a", "hash=b", "hash in (a)", "hash in (a,b)", "app==web,hash!=a", "hash", "missing=x", ""}
	check := func(step string) {
		t.Helper()
		for _, ns := range []string{"default", "other"} {
			if s.byNamespace[ns] == nil {
				continue
			}
			for _, q := range selectors {
				sel, err := labels.Parse(q)
				if err != nil {
					t.Fatal(err)
				}
				got, want := listKeys(s.List(ns, sel)), scanList(s, ns, sel)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: List(%s, %q) = %v, scan gives %v", step, ns, q, got, want)
				}
				var each []string
				s.EachMatching(ns, sel, func(o apiserver.Object) { each = append(each, KeyOf(o)) })
				sort.Strings(each)
				sorted := slices.Sorted(slices.Values(want))
				if fmt.Sprint(each) != fmt.Sprint(sorted) {
					t.Errorf("%s: EachMatching(%s, %q) visits %v, scan gives %v", step, ns, q, each, sorted)
				}
				if n, ok := s.NarrowestCount(ns, sel); ok && n < len(want) {
					t.Errorf("%s: NarrowestCount(%s, %q) = %d, below the %d matches", step, ns, q, n, len(want))
				} else if !ok && q != "" && !strings.Contains(q, "!=") && q != "hash" && q != "hash in (a,b)" {
					t.Errorf("%s: NarrowestCount(%s, %q) gives no bound", step, ns, q)
				}
			}
		}
	}
	for i := 0; i < 12; i++ {
		hash := "a"
		if i%3 == 0 {
			hash = "b"
		}
		ns := "default"
		if i%4 == 0 {
			ns = "other"
		}
		s.put(obj(ns, fmt.Sprintf("p%d", i), map[string]string{"app": "web", "hash": hash}))
	}
	check("initial")
	// p1 moves to hash=b and back: the scan keeps its first position.
	s.put(obj("default", "p1", map[string]string{"app": "web", "hash": "b"}))
	check("p1 to b")
	s.put(obj("default", "p1", map[string]string{"app": "web", "hash": "a"}))
	check("p1 back to a")
	s.put(obj("default", "p2", nil))
	check("p2 unlabelled")
	s.remove("default/p5")
	check("p5 removed")
	s.put(obj("default", "p5", map[string]string{"app": "web", "hash": "a"}))
	check("p5 re-added")
	for i := 0; i < 12; i++ {
		ns := "default"
		if i%4 == 0 {
			ns = "other"
		}
		s.remove(fmt.Sprintf("%s/p%d", ns, i))
	}
	check("all removed")
	if len(s.byLabel) != 0 {
		t.Errorf("label buckets left after removing every object: %d", len(s.byLabel))
	}
}
