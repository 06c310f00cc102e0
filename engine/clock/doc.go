// Package clock is the engine's only source of time.
//
// A Clock holds a virtual instant that moves forward only when the simulator
// advances it. Nothing in the engine may read the wall clock; every component
// that needs "now" is handed a *Clock. Virtual time starts at Epoch unless a
// scenario says otherwise, so timestamps in traces are stable across runs.
package clock
