package session

import "errors"

// ErrForwardOnly is returned by Seek for a step behind the current one in a
// forward-only session (SetForwardOnly).
var ErrForwardOnly = errors.New("the session plays forward only")

// SetForwardOnly makes the session keep nothing for going back or for the
// UI: from now on a step adds no StepInfo to History, no chart sample and no
// checkpoint (the one at step 0 stays), and Seek refuses earlier steps.
// The step observer still sees every step. A headless front end that writes
// the run out as it goes (the command line) uses it so that its memory does
// not grow with the run's length; the trace stays whole unless the caller
// drops what it has written (trace.Recorder.Forget).
func (s *Session) SetForwardOnly() {
	s.forwardOnly = true
	s.dropScratch()
	s.dropCheckpointsAfter(0)
}
