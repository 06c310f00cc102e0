package podutil

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// tagged is an element compared by key only; id tells equal keys apart, so
// a test sees which of two equivalent elements a sort put first.
type tagged struct{ key, id int }

type byKey []tagged

func (s byKey) Len() int           { return len(s) }
func (s byKey) Less(i, j int) bool { return s[i].key < s[j].key }
func (s byKey) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

// shapes build inputs that take sort.Sort down each of its paths: few
// distinct keys (the equal-elements partition), sorted and nearly sorted
// runs (the early exit and its fix-ups), descending runs (the reversal),
// organ pipes and sawtooths (unbalanced partitions, the pattern breaking
// and, with enough of them, the heapsort fallback).
var shapes = map[string]func(r *rand.Rand, n int) []int{
	"random": func(r *rand.Rand, n int) []int {
		return fill(n, func(int) int { return r.IntN(1 << 20) })
	},
	"few keys": func(r *rand.Rand, n int) []int {
		return fill(n, func(int) int { return r.IntN(4) })
	},
	"all equal":        func(r *rand.Rand, n int) []int { return fill(n, func(int) int { return 7 }) },
	"ascending":        func(r *rand.Rand, n int) []int { return fill(n, func(i int) int { return i / 3 }) },
	"descending":       func(r *rand.Rand, n int) []int { return fill(n, func(i int) int { return n - i }) },
	"descending pairs": func(r *rand.Rand, n int) []int { return fill(n, func(i int) int { return (n - i) / 2 }) },
	// An input on which sort.Sort itself picks bad pivots, see killerInput.
	"adversary": func(r *rand.Rand, n int) []int { return killerInput(n) },
	"nearly sorted": func(r *rand.Rand, n int) []int {
		s := fill(n, func(i int) int { return i })
		for range 3 {
			if n > 1 {
				i := r.IntN(n - 1)
				s[i], s[i+1] = s[i+1], s[i]
			}
		}
		return s
	},
	"organ pipe": func(r *rand.Rand, n int) []int {
		return fill(n, func(i int) int { return min(i, n-i) })
	},
	"sawtooth": func(r *rand.Rand, n int) []int {
		return fill(n, func(i int) int { return i % 17 })
	},
	// Pods of a rollout: a few batches, each created (and made ready) in one
	// instant, so long runs of equal keys.
	"batches": func(r *rand.Rand, n int) []int {
		return fill(n, func(i int) int { return i / max(1, n/5) })
	},
}

// killerInput returns keys on which sort.Sort's pivots are as bad as can
// be, so that it falls back to heapsort: McIlroy's adversary ("A killer
// adversary for quicksort", 1999) answers sort.Sort's comparisons, fixing
// an element's key only when it must (the pivot candidate gets the next
// low key, the rest stay high and equal), and the keys it fixed are then
// a fixed input that takes the same path.
func killerInput(n int) []int {
	a := &adversary{keys: make([]int, n), at: make([]int, n), gas: n, candidate: -1}
	for i := range n {
		a.keys[i], a.at[i] = a.gas, i
	}
	sort.Sort(a)
	return a.keys
}

// adversary sorts element ids (at holds the id at each position); keys
// are the ids' keys, gas (above every fixed key) until fixed.
type adversary struct {
	keys, at   []int
	gas, fixed int
	candidate  int
}

func (a *adversary) Len() int      { return len(a.at) }
func (a *adversary) Swap(i, j int) { a.at[i], a.at[j] = a.at[j], a.at[i] }
func (a *adversary) Less(i, j int) bool {
	x, y := a.at[i], a.at[j]
	if a.keys[x] == a.gas && a.keys[y] == a.gas {
		if x == a.candidate {
			a.keys[x] = a.fixed
		} else {
			a.keys[y] = a.fixed
		}
		a.fixed++
	}
	switch {
	case a.keys[x] == a.gas:
		a.candidate = x
	case a.keys[y] == a.gas:
		a.candidate = y
	}
	return a.keys[x] < a.keys[y]
}

func fill(n int, key func(i int) int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = key(i)
	}
	return s
}

// TestSortPrefixMatchesSortSort checks sortPrefix against sort.Sort of the
// toolchain the engine is built with: for every shape and size, the first k
// elements (ids included, so the order of equal keys too) are sort.Sort's
// for every k (a sample of k for the longer inputs), and the whole is a
// permutation of the input.
func TestSortPrefixMatchesSortSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 2, 7, 12, 13, 49, 50, 51, 200, 1000, 5000}
	// In name order: every shape draws from r, so the inputs are the same
	// from run to run.
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		shape := shapes[name]
		for _, n := range sizes {
			keys := shape(r, n)
			in := make(byKey, n)
			for i, k := range keys {
				in[i] = tagged{key: k, id: i}
			}
			want := slices.Clone(in)
			sort.Sort(want)
			ks := []int{0, 1, n / 2, n - 1, n, n + 3}
			if n <= 200 {
				ks = ks[:0]
				for k := range n + 2 {
					ks = append(ks, k)
				}
			} else {
				for range 20 {
					ks = append(ks, r.IntN(n))
				}
			}
			for _, k := range ks {
				got := slices.Clone(in)
				sortPrefix(got, k)
				m := min(max(k, 0), n)
				if !slices.Equal(got[:m], want[:m]) {
					t.Fatalf("%s, n=%d, k=%d: prefix differs from sort.Sort at %s", name, n, k, firstDiff(got[:m], want[:m]))
				}
				if !samePermutation(got, in) {
					t.Fatalf("%s, n=%d, k=%d: not a permutation of the input", name, n, k)
				}
			}
		}
	}
}

// TestSortPrefixMatchesSortSortRandomly runs many random short inputs with
// few distinct keys, the case where the order of equivalent elements is
// decided by the algorithm's steps.
func TestSortPrefixMatchesSortSortRandomly(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 3000 {
		n := r.IntN(400)
		distinct := 1 + r.IntN(8)
		in := make(byKey, n)
		for i := range in {
			in[i] = tagged{key: r.IntN(distinct), id: i}
		}
		want := slices.Clone(in)
		sort.Sort(want)
		k := r.IntN(n + 1)
		got := slices.Clone(in)
		sortPrefix(got, k)
		if !slices.Equal(got[:k], want[:k]) {
			t.Fatalf("trial %d (n=%d, %d keys, k=%d): prefix differs at %s", trial, n, distinct, k, firstDiff(got[:k], want[:k]))
		}
	}
}

// TestSortPrefixFullIsSortSort: with k = n every element is in place.
func TestSortPrefixFullIsSortSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	in := make(byKey, 3000)
	for i := range in {
		in[i] = tagged{key: r.IntN(50), id: i}
	}
	want, got := slices.Clone(in), slices.Clone(in)
	sort.Sort(want)
	sortPrefix(got, len(got))
	if !slices.Equal(got, want) {
		t.Fatalf("differs at %s", firstDiff(got, want))
	}
}

// rankedTrial builds the pods of one trial of TestSortPrefixRanksLikeSortSort
// from its own seed: 50 to 299 ready pods on one node, ready within a few
// seconds of each other (one log bucket, many in the same second), with 0
// to 2 restarts and random UIDs, in sort.Sort's order with a few pairs
// swapped. ActivePodsWithRanks.Less on such pods is not a strict weak
// order: two pods ready in the same second tie, yet a pod ready in another
// second of the bucket can come between them by UID. The nearly sorted
// order makes sort.Sort take its fix-up walk.
func rankedTrial(trial int, now time.Time) []*corev1.Pod {
	r := rand.New(rand.NewPCG(9, uint64(trial)))
	n := 50 + r.IntN(250)
	pods := make([]*corev1.Pod, n)
	spread, restarts := 1+r.IntN(8), 1+r.IntN(3)
	for i := range pods {
		ready := now.Add(-time.Duration(64+r.IntN(spread)) * time.Second)
		pods[i] = &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("p", i), UID: types.UID(fmt.Sprintf("%08x", r.Uint32())), CreationTimestamp: metav1.NewTime(now.Add(-time.Hour))},
			Spec:       corev1.PodSpec{NodeName: "n"},
			Status: corev1.PodStatus{
				Phase:             corev1.PodRunning,
				Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(ready)}},
				ContainerStatuses: []corev1.ContainerStatus{{Name: "c", RestartCount: int32(r.IntN(restarts))}},
			},
		}
	}
	sort.Sort(ActivePodsWithRanks{Pods: pods, Rank: make([]int, n), Now: now})
	for range r.IntN(6) {
		i, j := r.IntN(n), r.IntN(n)
		if r.IntN(2) == 0 {
			j = min(n-1, i+1+r.IntN(3))
		}
		pods[i], pods[j] = pods[j], pods[i]
	}
	return pods
}

// TestSortPrefixRanksLikeSortSort ranks pods for deletion both ways and
// compares every prefix. The listed trials are inputs on which a
// sortPrefix that left alone every range starting at or after k (an
// equal-elements partition's right part included) put another pod in the
// prefix than sort.Sort: found by running 40,000 trials (about 1 in 8,000
// failed); the others are a sample.
func TestSortPrefixRanksLikeSortSort(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	trials := []int{1023, 14639, 21879, 27878, 39853}
	for trial := range 100 {
		trials = append(trials, trial)
	}
	for _, trial := range trials {
		pods := rankedTrial(trial, now)
		n := len(pods)
		ranked := func() ActivePodsWithRanks {
			return ActivePodsWithRanks{Pods: slices.Clone(pods), Rank: make([]int, n), Now: now}.withKeys()
		}
		want := ranked()
		sort.Sort(want)
		for k := 1; k < n; k++ {
			got := ranked()
			sortPrefix(got, k)
			if !slices.Equal(got.Pods[:k], want.Pods[:k]) {
				t.Fatalf("trial %d (%d pods), k=%d: the prefix differs from sort.Sort's", trial, n, k)
			}
		}
	}
}

func firstDiff(a, b byKey) string {
	for i := range a {
		if a[i] != b[i] {
			return fmt.Sprintf("%d: got %+v, sort.Sort %+v", i, a[i], b[i])
		}
	}
	return "none"
}

func samePermutation(a, b byKey) bool {
	ids := func(s byKey) []int {
		out := make([]int, len(s))
		for i, e := range s {
			out[i] = e.id
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(ids(a), ids(b))
}

// BenchmarkSortPrefix ranks 5,000 pods' worth of keys in 20 batches and
// orders the first 500 (a burst), against sort.Sort of the whole.
func BenchmarkSortPrefix(b *testing.B) {
	in := make(byKey, 5000)
	for i := range in {
		in[i] = tagged{key: i / 250, id: i}
	}
	r := rand.New(rand.NewPCG(7, 8))
	r.Shuffle(len(in), in.Swap)
	work := make(byKey, len(in))
	b.Run("prefix-500", func(b *testing.B) {
		for b.Loop() {
			copy(work, in)
			sortPrefix(work, 500)
		}
	})
	b.Run("sort.Sort", func(b *testing.B) {
		for b.Loop() {
			copy(work, in)
			sort.Sort(work)
		}
	})
}
