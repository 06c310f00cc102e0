package rng

// Checkpoint is a saved position of a Stream: its whole mutable state (the
// name never changes). Restoring it replays the same numbers.
type Checkpoint struct{ state uint64 }

// Checkpoint saves the stream's position.
func (s *Stream) Checkpoint() Checkpoint { return Checkpoint{state: s.state} }

// Restore moves the stream back (or forward) to a saved position.
func (s *Stream) Restore(cp Checkpoint) { s.state = cp.state }
