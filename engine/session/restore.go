package session

import "fmt"

// ActionPanicError reports a user action that panicked half-way. Apply has
// already undone it: the action is not part of the run and the session is
// back at the step where it was made, in the state it had there.
type ActionPanicError struct {
	// Action describes the action (see Describe).
	Action string
	// Value is what the action panicked with.
	Value any
	// Step is the step the session was restored to.
	Step int
	// RestoreErr is set when the restore itself failed.
	RestoreErr error
}

func (e *ActionPanicError) Error() string {
	if e.RestoreErr != nil {
		return fmt.Sprintf("internal error while running %q: %v; restoring step %d failed: %v", e.Action, e.Value, e.Step, e.RestoreErr)
	}
	return fmt.Sprintf("internal error while running %q: %v; the action was undone (back at step %d without it)", e.Action, e.Value, e.Step)
}

// Panicked marks the error as an internal failure (the wasm bridge reports
// it as a panic).
func (e *ActionPanicError) Panicked() bool { return true }

// Restore rebuilds the simulation from the scenario and brings it to step
// n with the user actions recorded so far: from the old simulation's last
// checkpoint at or before n (restored detached into the new one, see
// inheritCheckpoints), replaying the rest. Unlike Seek it never keeps the
// current state, so it also repairs a state left half-changed by a panic
// (checkpoints are copies, taken before the panic). Should the list of
// checkpoints itself be damaged (a panic while it was being thinned), the
// run is replayed from step 0 instead.
func (s *Session) Restore(n int) error {
	if n < 0 {
		return fmt.Errorf("%w: %d", ErrNoSuchStep, n)
	}
	cps := s.cps
	if err := s.rebuild(); err != nil {
		return err
	}
	if cps.wellFormed() {
		s.inheritCheckpoints(&cps, n)
	}
	return s.Seek(n)
}

// undoPanickedAction drops the last recorded user action (the one that
// panicked while running at step at) and restores the session to step at
// without it.
func (s *Session) undoPanickedAction(desc string, value any, at int) error {
	s.futures++
	s.user = s.user[:len(s.user)-1]
	s.nextUser = len(s.user)
	e := &ActionPanicError{Action: desc, Value: value, Step: at}
	e.RestoreErr = s.Restore(at)
	return e
}
