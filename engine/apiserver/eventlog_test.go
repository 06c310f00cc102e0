package apiserver

import (
	"strconv"
	"testing"
)

func TestEventLogCheckpointsAcrossChunks(t *testing.T) {
	var l eventLog
	check := func(n int) {
		t.Helper()
		if l.len() != n {
			t.Fatalf("len = %d, want %d", l.len(), n)
		}
		for i := range n {
			if got := l.at(i).name; got != strconv.Itoa(i) {
				t.Fatalf("event %d is %q", i, got)
			}
		}
	}
	add := func(to int) {
		for i := l.len(); i < to; i++ {
			l.add(storedEvent{name: strconv.Itoa(i)})
		}
	}
	total := 2*eventChunk + 3
	cps := map[int]eventLog{}
	for _, n := range []int{0, eventChunk - 1, eventChunk, eventChunk + 1, total} {
		add(n)
		cps[n] = l.checkpoint()
	}
	check(total)
	for _, n := range []int{eventChunk - 1, total, 0, eventChunk + 1, eventChunk} {
		l.restore(cps[n])
		check(n)
	}
	// A replay after a restore writes the same events again.
	l.restore(cps[eventChunk-1])
	add(total)
	check(total)
	l.restore(cps[eventChunk+1])
	check(eventChunk + 1)
}
