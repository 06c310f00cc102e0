package main

import (
	"runtime"
	"testing"
)

// sink keeps the garbage the test makes from being optimised away.
var sink []byte

// idle collects only once the heap has used half the growth allowed
// before the next cycle: right after a collection it does nothing; after
// that much garbage it collects, and then again does nothing.
func TestIdleCollectsOnlyPastHalfTheAllowance(t *testing.T) {
	runtime.GC()
	if r := mustIdle(t); r.Collected {
		t.Fatalf("idle collected right after a collection: %+v", r)
	}
	before := numGC()
	// At most 256 MB of garbage: with the collector off (GOGC=off) the
	// allowance is never reached.
	for i := 0; ; i++ {
		if _, past := pastHalfAllowance(); past {
			break
		}
		if i == 1<<12 {
			t.Skip("the heap never used half the allowance (GOGC=off?)")
		}
		sink = make([]byte, 64<<10)
	}
	if numGC() != before {
		t.Skip("a collection ran while the test made garbage")
	}
	if r := mustIdle(t); !r.Collected || r.HeapBytes == 0 {
		t.Fatalf("idle did not collect past half the allowance: %+v", r)
	}
	if r := mustIdle(t); r.Collected {
		t.Fatalf("idle collected twice in a row: %+v", r)
	}
}

func mustIdle(t *testing.T) idleReport {
	t.Helper()
	v, err := idle(nil)
	if err != nil {
		t.Fatal(err)
	}
	return v.(idleReport)
}

func numGC() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumGC
}
