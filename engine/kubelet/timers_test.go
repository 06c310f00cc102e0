package kubelet

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
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

// A pod timer is current while its pod's state is the one it was scheduled
// with, or a copy of it, at the timer's generation; the answer must not
// depend on whether the state is of the current copy-on-write epoch (the
// fast path) or an older one (the lookup), which differs between a run and
// its replay after a restore.
func TestTimerValidityAcrossEpochsAndNames(t *testing.T) {
	k := &Kubelet{pods: cow.NewMap[string, *podState](), epoch: cow.NewToken()}
	scheduled := func(p *podState) timer {
		p.gen++
		return timer{key: p.key, gen: p.gen, act: actStart, pod: p}
	}
	check := func(what string, tm timer, want bool, wantState *podState) {
		t.Helper()
		p, ok := k.valid(tm)
		if ok != want || ok && p != wantState {
			t.Fatalf("%s: valid = %v (state %p), want %v (state %p)", what, ok, p, want, wantState)
		}
	}

	old := &podState{key: "ns/a", uid: "uid-1", epoch: k.epoch}
	k.addPod(old)
	tm := scheduled(old)
	check("scheduled", tm, true, old)

	// A checkpoint starts a new epoch; the first write copies the state.
	k.epoch = cow.NewToken()
	check("after a checkpoint", tm, true, old)
	cp := k.writable(old)
	check("copied", tm, true, cp)
	cp.gen++
	check("rescheduled copy", tm, false, nil)

	// The pod is deleted and a new one of the same name reaches the old
	// timer's generation, in the epoch of the old state and after another
	// checkpoint.
	next := scheduled(cp)
	k.deletePod(cp)
	check("deleted", next, false, nil)
	reborn := &podState{key: "ns/a", uid: "uid-2", epoch: k.epoch, gen: next.gen}
	k.addPod(reborn)
	check("same name, same generation, same epoch", next, false, nil)
	k.epoch = cow.NewToken()
	check("same name, same generation, later epoch", next, false, nil)
	check("the new pod's own timer", scheduled(reborn), true, reborn)

	// A state of the current epoch replaced without a delete (not seen from
	// a watch log, which deletes first) does not leave its timers current.
	first := &podState{key: "ns/b", uid: "uid-3", epoch: k.epoch}
	k.addPod(first)
	own := scheduled(first)
	check("before the replacement", own, true, first)
	second := &podState{key: "ns/b", uid: "uid-4", epoch: k.epoch, gen: own.gen}
	k.addPod(second)
	check("replaced without a delete", own, false, nil)
	check("the replacing pod's own timer", scheduled(second), true, second)
}
