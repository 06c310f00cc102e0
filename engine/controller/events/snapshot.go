package events

// Checkpoint is a Recorder's whole mutable state: the name suffix of the
// last Event created, which keeps generated names unique, and the
// correlator's caches (not its key memo, which is derived).
type Checkpoint struct {
	lastNanos int64
	corr      *correlator
}

// Checkpoint saves the recorder's state.
func (r *Recorder) Checkpoint() Checkpoint {
	return Checkpoint{lastNanos: r.lastNanos, corr: r.corr.clone()}
}

// Restore puts the recorder back in the saved state. The checkpoint stays
// usable.
func (r *Recorder) Restore(cp Checkpoint) { r.lastNanos, r.corr = cp.lastNanos, cp.corr.clone() }
