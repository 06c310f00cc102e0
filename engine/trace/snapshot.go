package trace

import "github.com/rolloutlab/rolloutlab/engine/internal/appendonly"

// Checkpoint is a saved length of a Recorder's trace plus its current step.
// Records are append-only and never changed once emitted, so a checkpoint
// keeps only the length (see package appendonly): restoring it truncates
// the trace.
type Checkpoint struct {
	records int
	step    int
}

// Checkpoint saves the trace's current length and step.
func (r *Recorder) Checkpoint() Checkpoint { return Checkpoint{records: len(r.records), step: r.step} }

// Restore rewinds the trace to the checkpoint. Slices returned by Records
// or Since before the call may see their later records replaced by the
// replay that follows.
func (r *Recorder) Restore(cp Checkpoint) {
	r.records = appendonly.Restore(r.records, cp.records)
	r.step = cp.step
}
