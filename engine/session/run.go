package session

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// RunToEnd plays the scenario out, for headless runs (the CLI's default):
// it settles, and while timeline actions are still pending it settles again.
// When a settle makes no progress although actions are pending (the next
// one is timed beyond the settle horizon), one event is taken, which moves
// the clock to it. It stops when no action is pending after a settle, when
// nothing at all is due (a "when" action whose condition can no longer come
// true stays pending), or when a limit stops the run: Limits.MaxSteps bounds
// every loop here. User actions recorded at the step it stands at run
// first. It returns the steps taken.
//
// Example: adoption.yaml applies a ReplicaSet at 5s and deletes it once two
// pods are available; RunToEnd returns after the garbage collector's pod
// deletions at +10s with no action pending.
func (s *Session) RunToEnd() []sim.StepInfo {
	var out []sim.StepInfo
	for s.sim.Err() == nil {
		// A user action recorded where the run was idle (a fork replaying
		// the user's run to its end) has no next step to run with.
		s.applyUserActions()
		steps := s.Advance(BySettle, 1)
		out = s.taken(out, steps...)
		if len(s.sim.PendingActions()) == 0 && !s.userActionDue() {
			break
		}
		if s.userActionDue() {
			continue
		}
		if len(steps) == 0 {
			steps = s.Advance(ByEvent, 1)
			if len(steps) == 0 {
				break
			}
			out = s.taken(out, steps...)
		}
	}
	return out
}

// RunToTime takes every event due at or before virtual time at (measured
// from the start of the simulation) and stops: the state is the one after
// the last event at or before at. The clock is not moved past that event,
// so that a replay (Seek) reproduces the same state. It returns the steps
// taken; none when the clock is already at or past at.
//
// Example: on adoption.yaml, RunToTime(7*time.Second) stops after the
// kubelet reports the second pod running at +7s, before it turns ready at
// +8s.
func (s *Session) RunToTime(at time.Duration) []sim.StepInfo {
	deadline := s.sim.Clock().Start().Add(at)
	reached := func(sm *sim.Sim) bool {
		next, ok := sm.NextDue()
		return !ok || next.After(deadline)
	}
	return s.RunUntil(reached, s.scen.Limits.MaxSteps)
}

// ComputeAhead computes up to n more steps of the run past the last one
// computed, event by event as stepping would, and goes back to the step it
// was at: the steps are then known (a player's slider spans them) and
// stepping onto them replays them. It reports whether the run has ended:
// it took fewer than n steps because nothing more is due or a limit stopped
// it. A forward-only session cannot go back, so it computes nothing.
//
// Example: on adoption.yaml, ComputeAhead(1000) at step 0 computes the 36
// steps of the run, reports true, and leaves the session at step 0.
func (s *Session) ComputeAhead(n int) (ended bool, err error) {
	if s.forwardOnly || n <= 0 {
		return false, nil
	}
	at := s.sim.Steps()
	if err := s.Seek(s.MaxStep()); err != nil {
		return false, err
	}
	ended = len(s.Advance(ByEvent, n)) < n
	return ended, s.Seek(at)
}

// userActionDue reports whether a recorded user action is due at the
// current step and has not run.
func (s *Session) userActionDue() bool {
	return s.nextUser < len(s.user) && s.user[s.nextUser].AtStep <= s.sim.Steps()
}
