package session

import (
	"fmt"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// ForkAt returns a second session standing right after step n of this
// session's run, computed as this session's run would be: from its last
// checkpoint at or before n, replaying the rest, with the same source, seed
// and user actions. The fork takes the checkpoints up to there as its own
// rewind points.
// The user actions recorded at step n itself have not run yet in the fork;
// they run with its next step, as they would in this session. With
// keepLater false, the actions recorded at step n or later are dropped, so
// that the caller can apply an alternative "instead" (Apply).
//
// The fork shares checkpoints with s, and no entry either writes to:
// stepping, rewinding or acting on one never moves the other. (The
// copy-on-write maps they share grow a common slot table, see cow.Map:
// both must be used from one goroutine.)
//
// Example: a session that set an image at step 40 and played on to step 90,
// forked at 40 without later actions, stands at step 40 with the image
// unchanged; forked with them, the image is set before its step 41.
func (s *Session) ForkAt(n int, keepLater bool) (*Session, error) {
	if n < 0 {
		return nil, fmt.Errorf("%w: %d", ErrNoSuchStep, n)
	}
	keep := len(s.user)
	if !keepLater {
		keep = 0
		for keep < len(s.user) && s.user[keep].AtStep < n {
			keep++
		}
	}
	f := &Session{name: s.name, source: s.source, scen: s.scen, seed: s.seed,
		user: append([]userAction(nil), s.user[:keep]...)}
	if err := f.rebuild(); err != nil {
		return nil, err
	}
	at := s.cps.nearest(n).sim.Step()
	f.history = append([]sim.StepInfo(nil), s.history[:at]...)
	f.samples = append([]Sample(nil), s.samples[:at+1]...)
	f.inheritCheckpoints(&s.cps, n)
	for f.sim.Steps() < n {
		if _, ok := f.stepOnce(); !ok {
			return nil, fmt.Errorf("%w: the run ends at step %d", ErrNoSuchStep, f.sim.Steps())
		}
	}
	return f, nil
}

// FromScenario builds a session at step 0 from an already parsed scenario,
// for callers that change the parsed objects first (compare's --set
// overrides). source is kept as the session's text; it is the file the
// scenario was parsed from, before the caller's changes. The scenario as
// changed is held to the ceilings c (scenario.CheckLimits), as Load does.
func FromScenario(name string, source []byte, scen *scenario.Scenario, seed *uint64, c scenario.Ceilings) (*Session, error) {
	if err := scen.CheckLimits(name, c); err != nil {
		return nil, err
	}
	s := &Session{name: name, source: append([]byte(nil), source...), scen: scen, seed: scen.Seed}
	if seed != nil {
		s.seed = *seed
	}
	if err := s.rebuild(); err != nil {
		return nil, err
	}
	return s, nil
}

// RunDueActions runs the user actions recorded at the current step that
// have not run yet (a fork's, see ForkAt); otherwise they run with the next
// step, and an idle simulation takes none.
func (s *Session) RunDueActions() { s.applyUserActions() }
