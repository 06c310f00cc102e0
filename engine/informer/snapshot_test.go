package informer

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// dumpStore renders everything a Store holds, sets in their item order
// (tombstones as "-"), and fails when a set holds an entry that is not the
// one cached under its key.
func dumpStore(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	keys := make([]string, 0, len(s.objects))
	for k := range s.objects {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := s.objects[k]
		fmt.Fprintf(&b, "%s rv=%s labels=%v seq=%d indexed=%v\n", e.key, e.obj.GetResourceVersion(), e.obj.GetLabels(), e.seq, e.indexed)
	}
	set := func(name string, os *orderedSet) {
		fmt.Fprintf(&b, "%s:", name)
		for _, e := range os.items {
			if e == nil {
				b.WriteString(" -")
				continue
			}
			if s.objects[e.key] != e {
				t.Fatalf("set %s holds an entry for %s that is not the cached one", name, e.key)
			}
			fmt.Fprintf(&b, " %s@%d", e.key, os.pos[e.seq])
		}
		if len(os.pos) != os.len() {
			t.Fatalf("set %s: pos and items disagree", name)
		}
		b.WriteString("\n")
	}
	sets := func(prefix string, m map[string]*orderedSet) {
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			set(prefix+k, m[k])
		}
	}
	set("order", s.order)
	sets("ns/", s.byNamespace)
	for _, name := range s.indexNames {
		sets("index/"+name+"/", s.indices[name])
	}
	byLabel := make(map[string]*orderedSet, len(s.byLabel))
	for k, set := range s.byLabel {
		byLabel[k.ns+"/"+k.key+"="+k.value] = set
	}
	sets("label/", byLabel)
	if s.groups != nil {
		b.WriteString(dumpGroups(s))
		for _, k := range keys {
			e := s.objects[k]
			fmt.Fprintf(&b, "%s sig=%q facts=%+v\n", k, e.labelSig, e.facts)
		}
	}
	fmt.Fprintf(&b, "rv=%d nextSeq=%d\n", s.lastAppliedRV, s.nextSeq)
	return b.String()
}

// churn puts, relabels and removes objects of s, round r making different
// changes.
func churn(s *Store, r int) {
	for i := 0; i < 40; i++ {
		ns := []string{"default", "other"}[i%2]
		name := fmt.Sprintf("p%d", (i*7+r)%23)
		if (i+r)%5 == 0 {
			s.remove(ns + "/" + name)
			continue
		}
		s.put(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
			ResourceVersion: fmt.Sprint(r*100 + i),
			Labels:          map[string]string{"app": "web", "owner": fmt.Sprint((i + r) % 3)}}})
		s.lastAppliedRV = uint64(r*100 + i)
	}
}

// A store checkpoint is isolated from the live store, whose entries change
// in place: restoring gives back exactly the saved cache and indexes, with
// every set holding the live entries, however the store changed since and
// however often the checkpoint is restored.
func TestStoreCheckpointRestoresEntriesAndSets(t *testing.T) {
	byOwner := func(o apiserver.Object) []string { return []string{o.GetLabels()["owner"]} }
	s := newStore(map[string]IndexFunc{"owner": byOwner})
	churn(s, 0)
	churn(s, 1)
	saved := s.checkpoint(nil)
	want := dumpStore(t, s)
	// A checkpoint taken after more changes shares saved's unchanged
	// entries; restoring either gives back its own state.
	churn(s, 20)
	later := s.checkpoint(saved.entries)
	wantLater := dumpStore(t, s)
	shared := 0
	for k, e := range later.entries {
		if saved.entries[k] == e {
			shared++
		}
	}
	if shared == 0 || shared == len(later.entries) {
		t.Fatalf("%d of %d entries shared: the test checks nothing", shared, len(later.entries))
	}
	s.restore(&saved)
	if got := dumpStore(t, s); got != want {
		t.Fatalf("restore of the first checkpoint after the second was taken:\n%s\nwant:\n%s", got, want)
	}
	s.restore(&later)
	if got := dumpStore(t, s); got != wantLater {
		t.Fatalf("restore of the second checkpoint:\n%s\nwant:\n%s", got, wantLater)
	}
	s.restore(&saved)
	for r := 2; r < 6; r++ {
		churn(s, r)
		if dumpStore(t, s) == want {
			t.Fatalf("round %d changed nothing: the test checks nothing", r)
		}
		s.restore(&saved)
		if got := dumpStore(t, s); got != want {
			t.Fatalf("restore after round %d:\n%s\nwant:\n%s", r, got, want)
		}
		// The restored store keeps working like the saved one did.
		churn(s, r+10)
		twin := newStore(map[string]IndexFunc{"owner": byOwner})
		twin.restore(&saved)
		churn(twin, r+10)
		if a, b := dumpStore(t, s), dumpStore(t, twin); a != b {
			t.Fatalf("after restore and round %d:\n%s\nfresh store restored likewise:\n%s", r+10, a, b)
		}
		s.restore(&saved)
	}
}

// A checkpoint shares a saved entry with the one before only when equals
// holds, so equals must see a change in any field of entry.
func TestSavedEntryEqualsComparesEveryField(t *testing.T) {
	obj1, obj2 := &corev1.Pod{}, &corev1.Pod{}
	base := func() *entry { return &entry{key: "k", obj: obj1, seq: 1, indexed: [][]string{{"a"}}} }
	saved := base()
	if !saved.equals(base()) {
		t.Fatal("an entry saved as it is does not equal it")
	}
	typ := reflect.TypeOf(entry{})
	for i := 0; i < typ.NumField(); i++ {
		e := base()
		switch name := typ.Field(i).Name; name {
		case "key":
			e.key = "j"
		case "obj":
			e.obj = obj2
		case "seq":
			e.seq = 2
		case "indexed":
			e.indexed = [][]string{{"b"}}
		case "labelSig":
			e.labelSig = "app=web"
		case "facts":
			e.facts.Nums[5] = 1
		default:
			t.Fatalf("field %s: teach equals and this test about it", name)
		}
		if saved.equals(e) {
			t.Errorf("a change of entry.%s is not seen by equals", typ.Field(i).Name)
		}
	}
}
