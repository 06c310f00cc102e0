package sim

import "time"

// Settle steps until nothing is due, the clock has moved past the settle
// horizon (Limits.SettleHorizon from where it started), a limit stops the
// run, or maxSteps steps were taken. It returns the number of steps and
// whether the simulation is idle.
func (s *Sim) Settle(maxSteps int) (int, bool) {
	horizon := s.clock.Now().Add(s.opts.Limits.SettleHorizon)
	n := 0
	for n < maxSteps {
		due, ok := s.pick()
		if !ok || due.at.After(horizon) {
			break
		}
		if _, ok := s.stepTo(due); !ok {
			break
		}
		n++
	}
	return n, s.Idle()
}

// RunTo steps through every event due at or before t, then moves the clock to
// t. It returns the number of steps taken.
func (s *Sim) RunTo(t time.Time, maxSteps int) int {
	n := 0
	for n < maxSteps {
		due, ok := s.pick()
		if !ok || due.at.After(t) {
			break
		}
		if _, ok := s.stepTo(due); !ok {
			return n
		}
		n++
	}
	if s.err == nil && t.After(s.clock.Now()) {
		s.clock.AdvanceTo(t)
	}
	return n
}
