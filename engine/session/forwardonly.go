package session

import (
	"errors"

	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// ErrForwardOnly is returned by Seek for a step behind the current one in a
// forward-only session (SetForwardOnly).
var ErrForwardOnly = errors.New("the session plays forward only")

// SetForwardOnly makes the session keep nothing for going back or for the
// UI: from now on a step adds no StepInfo to History, no chart sample and no
// checkpoint (the one at step 0 stays), Seek refuses earlier steps, and
// Advance, RunUntil, RunToEnd and RunToTime return only the last step taken.
// The step observer still sees every step. A headless front end that writes
// the run out as it goes (the command line) uses it so that its memory does
// not grow with the run's length; the trace stays whole unless the caller
// drops what it has written (trace.Recorder.Forget).
func (s *Session) SetForwardOnly() {
	s.forwardOnly = true
	s.dropScratch()
	s.dropCheckpointsAfter(0)
}

// taken appends steps to out, the steps a call to Advance, RunUntil,
// RunToEnd or RunToTime returns. A forward-only session returns only the
// last step taken (none when none was): its caller watches the steps with
// the step observer, and a long run's list would be the largest thing it
// keeps.
func (s *Session) taken(out []sim.StepInfo, steps ...sim.StepInfo) []sim.StepInfo {
	if !s.forwardOnly || len(steps) == 0 {
		return append(out, steps...)
	}
	return append(out[:0], steps[len(steps)-1])
}
