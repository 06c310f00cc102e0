package trace

import "slices"

// Checkpoint is a saved length of a Recorder's trace plus its current step.
// Records never change once emitted, so a checkpoint shares them: it keeps
// the chunk headers as they were (each chunk's length then) and the count.
//
// Restoring an earlier checkpoint puts those headers back, so the next
// records are appended into the same arrays, over slots that later
// checkpoints (and the trace before the restore) may still show. That is
// safe because of how checkpoints are used: a replay from a checkpoint
// computes the same records again, so it writes into those slots what they
// already held, and a run whose future changes (a user action after a
// rewind) drops every checkpoint after that point first. Restoring a later
// checkpoint again extends the trace to records that are still in place.
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

// Restore rewinds (or winds forward) the trace to the checkpoint. Slices
// returned by Slice, Records or Since before the call may see their later
// records replaced by the replay that follows.
func (r *Recorder) Restore(cp Checkpoint) {
	clear(r.chunks[min(len(cp.chunks), len(r.chunks)):])
	r.chunks = append(r.chunks[:0], cp.chunks...)
	r.n = cp.n
	r.step = cp.step
}

// RestoreDetached is Restore for a checkpoint of another recorder's trace
// (a forked simulation's): the records are shared as usual, but the last,
// partly filled chunk is clipped to its length, so that the next record
// appended copies it to a new array instead of landing in the other
// trace's. Chunks before it are full and never written again.
func (r *Recorder) RestoreDetached(cp Checkpoint) {
	r.Restore(cp)
	if last := len(r.chunks) - 1; last >= 0 {
		r.chunks[last] = slices.Clip(r.chunks[last])
	}
}
