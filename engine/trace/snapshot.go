package trace

import (
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/internal/inplace"
)

// Checkpoint is a saved length of a Recorder's trace plus its current step.
// Records never change once emitted, so a checkpoint shares them: it keeps
// the chunk headers of the encoded records and of the string table as they
// were (each chunk's length then), the marks and boxed payloads slices,
// the counts, and a copy of the intern cache.
//
// A restore clips each last, partly filled chunk and the marks and boxed
// payloads to their length, so the next record, string, mark or payload
// appended goes to a new array: a slot any checkpoint shows is written
// once and never again. Checkpoints can therefore be restored in any order
// and shared between recorders (a fork's and its parent's), whatever each
// run appends afterwards.
type Checkpoint struct {
	data  [][]byte
	strs  [][]string
	marks []cursor
	boxed []Payload
	// at is a copy of the recorder's position (16 KB, most of it the
	// intern cache).
	at *position
}

// Checkpoint saves the trace's current length and step: copies of the
// chunk headers and of the intern cache (16 KB), not of the
// records.
func (r *Recorder) Checkpoint() Checkpoint {
	at := r.position
	return Checkpoint{data: slices.Clone(r.data), strs: slices.Clone(r.strs), marks: r.marks, boxed: r.boxed, at: &at}
}

// Len returns the number of records the trace held.
func (c Checkpoint) Len() int { return c.at.n }

// Restore rewinds (or winds forward) the trace to the checkpoint. Slices
// returned by Slice, Records or Since before the call keep what they held.
func (r *Recorder) Restore(cp Checkpoint) {
	r.data, r.strs = inplace.Chunks(r.data, cp.data), inplace.Chunks(r.strs, cp.strs)
	r.position = *cp.at
	r.marks, r.boxed = slices.Clip(cp.marks), slices.Clip(cp.boxed)
}
