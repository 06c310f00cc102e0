package main

import (
	"encoding/json"
	"runtime"
)

// idleReport is the result of the "idle" method.
type idleReport struct {
	// Collected is true when the call ran a garbage collection.
	Collected bool `json:"collected"`
	// HeapBytes is the heap held by objects after the call.
	HeapBytes uint64 `json:"heapBytes"`
}

// idle runs a garbage collection when the heap has used at least half of
// the growth the collector allows before its next cycle; the page's
// Worker calls it when no call has come for a while. Under js/wasm the
// collector has one thread, the page's Worker's, so a cycle runs inside
// whichever call's allocation starts it: with the heap of a 100k-step run
// (about 270 MB live) a cycle costs about 250 ms, which that call (a seek
// or a step) then takes on top of its own work. Collecting while the user
// is idle moves most cycles out of the calls. It takes no arguments.
func idle(json.RawMessage) (any, error) {
	heap, past := pastHalfAllowance()
	r := idleReport{HeapBytes: heap}
	if past {
		runtime.GC()
		r.Collected = true
		r.HeapBytes, _ = pastHalfAllowance()
	}
	return r, nil
}

// pastHalfAllowance returns the heap held by objects and whether it has
// used half of the growth the collector allows before its next cycle.
// The next cycle starts at NextGC, the heap found live at the last one
// times 1 + GOGC/100 (GOGC is 100: nothing sets it), so half the growth
// is used at three quarters of NextGC. (runtime/metrics, which gives the
// live heap directly, costs the page 12 kB.)
func pastHalfAllowance() (heap uint64, past bool) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, m.HeapAlloc >= m.NextGC/4*3
}
