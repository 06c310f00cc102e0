package trace

import (
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/internal/inplace"
)

// Checkpoint is a saved length of a Recorder's trace plus its current step.
// Records never change once emitted, so a checkpoint shares them: it keeps
// the chunk headers as they were (each chunk's length then) and the count.
//
// A restore clips the last, partly filled chunk to its length, so the next
// record appended goes to a new array: a slot any checkpoint shows is
// written once and never again. Checkpoints can therefore be restored in
// any order and shared between recorders (a fork's and its parent's),
// whatever each run appends afterwards.
type Checkpoint struct {
	chunks [][]Record
	n      int
	step   int
}

// Checkpoint saves the trace's current length and step: a copy of the chunk
// headers (one per chunkSize records), not of the records.
func (r *Recorder) Checkpoint() Checkpoint {
	return Checkpoint{chunks: slices.Clone(r.chunks), n: r.n, step: r.step}
}

// Len returns the number of records the trace held.
func (c Checkpoint) Len() int { return c.n }

// Restore rewinds (or winds forward) the trace to the checkpoint. Slices
// returned by Slice, Records or Since before the call keep what they held.
func (r *Recorder) Restore(cp Checkpoint) {
	r.chunks = inplace.Chunks(r.chunks, cp.chunks)
	r.n = cp.n
	r.step = cp.step
}
