package kubelet

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestTimerHeapPopsByTimeThenSchedulingOrder(t *testing.T) {
	var h timerHeap
	// Times cycle through a few values so that ties are common.
	for seq := uint64(1); seq <= 200; seq++ {
		h.push(timer{due: time.Duration((seq*7919)%13) * time.Second, seq: seq})
	}
	var prev timer
	for i := 0; len(h) > 0; i++ {
		got := h.pop()
		if i > 0 && (got.due < prev.due || got.due == prev.due && got.seq < prev.seq) {
			t.Fatalf("pop %d: %v seq %d after %v seq %d", i, got.due, got.seq, prev.due, prev.seq)
		}
		prev = got
	}
}

// TestTimerHeapMatchesSortedOrder interleaves pushes and pops (as the
// kubelet does) and checks every pop against the earliest timer left,
// found by a linear scan: the heap's shape must not change the order.
func TestTimerHeapMatchesSortedOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h timerHeap
	var left []timer
	seq := uint64(0)
	for op := 0; op < 20_000; op++ {
		if len(left) == 0 || r.IntN(3) > 0 {
			seq++
			tm := timer{due: time.Duration(r.IntN(50)) * time.Second, seq: seq}
			h.push(tm)
			left = append(left, tm)
			continue
		}
		first := 0
		for i, tm := range left {
			if tm.due < left[first].due || tm.due == left[first].due && tm.seq < left[first].seq {
				first = i
			}
		}
		got := h.pop()
		if got != left[first] {
			t.Fatalf("op %d: popped due %v seq %d, the earliest left is due %v seq %d", op, got.due, got.seq, left[first].due, left[first].seq)
		}
		left = append(left[:first], left[first+1:]...)
	}
	if len(h) != len(left) {
		t.Fatalf("%d timers in the heap, %d expected", len(h), len(left))
	}
}
