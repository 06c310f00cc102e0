package main

import (
	"encoding/json"
	"runtime"
	"runtime/metrics"
)

// idleReport is the result of the "idle" method.
type idleReport struct {
	// Collected is true when the call ran a garbage collection.
	Collected bool `json:"collected"`
	// LiveBytes is the heap the last collection found live, after this
	// call's when it ran one.
	LiveBytes uint64 `json:"liveBytes"`
}

// idleSamples are the runtime metrics idle reads: the heap held by
// objects (live or not yet swept), the heap the last collection found
// live, and the heap size at which the next collection starts.
var idleSamples = []metrics.Sample{
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/gc/heap/live:bytes"},
	{Name: "/gc/heap/goal:bytes"},
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
	live, past := pastHalfAllowance()
	r := idleReport{LiveBytes: live}
	if past {
		runtime.GC()
		r.Collected = true
		r.LiveBytes, _ = pastHalfAllowance()
	}
	return r, nil
}

// pastHalfAllowance returns the heap the last collection found live and
// whether the heap has since grown by at least half of what the collector
// allows before its next cycle.
func pastHalfAllowance() (live uint64, past bool) {
	metrics.Read(idleSamples)
	used, live, goal := idleSamples[0].Value.Uint64(), idleSamples[1].Value.Uint64(), idleSamples[2].Value.Uint64()
	return live, goal > live && used > live && used-live >= (goal-live)/2
}
