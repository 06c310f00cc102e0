package clock

import "time"

// Checkpoint is a saved virtual instant: the whole mutable state of a
// Clock (its start never changes; elapsed follows from now).
type Checkpoint struct{ now time.Time }

// Checkpoint saves the current instant.
func (c *Clock) Checkpoint() Checkpoint { return Checkpoint{now: c.now} }

// Restore moves the clock to the saved instant, backwards if need be: the
// only way time goes back, used to rewind a whole simulation.
func (c *Clock) Restore(cp Checkpoint) { c.set(cp.now) }
