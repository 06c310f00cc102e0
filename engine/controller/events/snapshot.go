package events

// Checkpoint is a Recorder's whole mutable state: the timestamp of the last
// event named, which keeps generated names unique.
type Checkpoint struct{ lastNanos int64 }

// Checkpoint saves the recorder's state.
func (r *Recorder) Checkpoint() Checkpoint { return Checkpoint{lastNanos: r.lastNanos} }

// Restore puts the recorder back in the saved state.
func (r *Recorder) Restore(cp Checkpoint) { r.lastNanos = cp.lastNanos }
