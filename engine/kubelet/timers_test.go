package kubelet

import (
	"testing"
	"time"
)

func TestTimerHeapPopsByTimeThenSchedulingOrder(t *testing.T) {
	var h timerHeap
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	// Times cycle through a few values so that ties are common.
	for seq := uint64(1); seq <= 200; seq++ {
		h.push(timer{at: base.Add(time.Duration((seq*7919)%13) * time.Second), seq: seq})
	}
	var prev timer
	for i := 0; len(h) > 0; i++ {
		got := h.pop()
		if i > 0 && (got.at.Before(prev.at) || got.at.Equal(prev.at) && got.seq < prev.seq) {
			t.Fatalf("pop %d: %v seq %d after %v seq %d", i, got.at, got.seq, prev.at, prev.seq)
		}
		prev = got
	}
}
