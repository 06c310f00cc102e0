package clock

import (
	"fmt"
	"time"
)

// Epoch is the default start of virtual time. It is fixed so that every
// creationTimestamp, condition time and trace line is reproducible.
var Epoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Clock is a virtual clock.
type Clock struct {
	// start is the instant the simulation began; Elapsed is measured from it.
	start time.Time
	// now never moves backwards: AdvanceTo refuses an earlier instant.
	now time.Time
	// elapsed is always now.Sub(start), kept beside now because Elapsed is
	// read for every trace record and time.Time.Sub is not cheap in the
	// browser's wasm, built without inlining: Elapsed was 1.8% of a js/wasm
	// rewind replay (node CPU profile of BenchmarkSeek at 100k steps).
	elapsed time.Duration
}

// New returns a clock whose current time is start.
func New(start time.Time) *Clock {
	return &Clock{start: start, now: start}
}

// set moves the clock to t, keeping elapsed in step with now.
func (c *Clock) set(t time.Time) {
	c.now = t
	c.elapsed = t.Sub(c.start)
}

// Now returns the current virtual time.
func (c *Clock) Now() time.Time { return c.now }

// Start returns the instant the clock was created at.
func (c *Clock) Start() time.Time { return c.start }

// Elapsed returns the virtual time since the clock started.
func (c *Clock) Elapsed() time.Duration { return c.elapsed }

// Since returns the virtual time elapsed since t.
func (c *Clock) Since(t time.Time) time.Duration { return c.now.Sub(t) }

// AdvanceTo moves the clock to t. Moving backwards is a programming error in
// the simulator and panics, because it would break every ordering guarantee.
func (c *Clock) AdvanceTo(t time.Time) {
	if t.Before(c.now) {
		panic(fmt.Sprintf("clock: cannot move back from %s to %s", c.now.Format(time.RFC3339Nano), t.Format(time.RFC3339Nano)))
	}
	c.set(t)
}

// Advance moves the clock forward by d (d must not be negative).
func (c *Clock) Advance(d time.Duration) { c.AdvanceTo(c.now.Add(d)) }

// FormatOffset renders a duration since the start of the simulation the way
// traces show it: seconds with millisecond precision, e.g. "+12.345s".
func FormatOffset(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign = "-"
		d = -d
	}
	ms := d.Milliseconds()
	return fmt.Sprintf("%s%d.%03ds", sign, ms/1000, ms%1000)
}
