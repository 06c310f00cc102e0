package apiserver

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// TestTableKeysStaySorted interleaves creations, removals, re-creations of
// removed keys and reads, and checks every read against a full sort of the
// live keys. Reads come often at first, then rarely, so that put merges
// the keys added in between itself (maxAdded). The table shares its slot
// table with another map, which sets keys of its own and some of the
// table's first, so that a key's slot is not its order of creation.
func TestTableKeysStaySorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	slots := cow.NewSlotTable[string]()
	tb := &table{objs: cow.NewMapOn[string, Object](slots)}
	other := cow.NewMapOn[string, int](slots)
	for i := 0; i < 6000; i++ {
		k := "ns/p" + strconv.Itoa(r.IntN(2000))
		switch r.IntN(4) {
		case 0, 1:
			tb.put(k, &corev1.Pod{})
		case 2:
			tb.remove(k)
		case 3:
			other.Set(k, i)
			other.Set("ns/q"+strconv.Itoa(i), i)
		}
		if every := 7 + i/3000*400; r.IntN(every) == 0 {
			want := make([]string, 0, tb.objs.Len())
			tb.objs.Range(func(k string, _ Object) bool {
				want = append(want, k)
				return true
			})
			sort.Strings(want)
			if got := tb.keys(); !slices.Equal(got, want) {
				t.Fatalf("op %d: keys %v, want %v", i, got, want)
			}
		}
	}
}

// TestPodsOnNode follows pods through bind and delete and checks the
// per-node counts and EachPod against the stored pods.
func TestPodsOnNode(t *testing.T) {
	e := newTestEnv()
	for i := 0; i < 6; i++ {
		p := testPod("default", "p"+strconv.Itoa(i), nil)
		p.Spec.TerminationGracePeriodSeconds = new(int64)
		if _, err := e.srv.CreatePod("kubectl", p); err != nil {
			t.Fatal(err)
		}
	}
	for i, node := range []string{"a", "b", "a", "a"} {
		if _, err := e.srv.BindPod("scheduler", "default", "p"+strconv.Itoa(i), node); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.srv.DeletePod("kubectl", "default", "p2", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	var names []string
	e.srv.EachPod(func(p *corev1.Pod) bool {
		names = append(names, p.Name)
		if p.Spec.NodeName != "" {
			counts[p.Spec.NodeName]++
		}
		return true
	})
	if e.srv.PodsOnNode("a") != counts["a"] || e.srv.PodsOnNode("b") != counts["b"] || e.srv.PodsOnNode("c") != 0 {
		t.Fatalf("counts a=%d b=%d, want %v", e.srv.PodsOnNode("a"), e.srv.PodsOnNode("b"), counts)
	}
	if e.srv.PodCount() != len(names) || !slices.IsSorted(names) {
		t.Fatalf("PodCount %d, EachPod %v", e.srv.PodCount(), names)
	}
	var first []string
	e.srv.EachPod(func(p *corev1.Pod) bool { first = append(first, p.Name); return len(first) < 2 })
	if len(first) != 2 || first[0] != names[0] {
		t.Fatalf("EachPod did not stop: %v", first)
	}
}
