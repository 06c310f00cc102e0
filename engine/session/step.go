package session

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// Granularity is how far one call to Advance goes.
type Granularity uint8

const (
	// ByEvent takes one simulator step: one event.
	ByEvent Granularity = iota + 1
	// BySync takes steps up to and including the next controller sync.
	BySync
	// BySettle takes steps until nothing is due (or the settle horizon or
	// a limit is reached).
	BySettle
)

// ParseGranularity maps "event", "sync" and "settle" to a Granularity.
func ParseGranularity(s string) (Granularity, error) {
	switch s {
	case "event", "":
		return ByEvent, nil
	case "sync":
		return BySync, nil
	case "settle":
		return BySettle, nil
	}
	return 0, fmt.Errorf("unknown granularity %q (want event, sync or settle)", s)
}

// settleMaxSteps bounds one settle call; Limits.MaxSteps bounds the run.
const settleMaxSteps = 1_000_000

// ErrNoSuchStep is returned by Seek for a negative step.
var ErrNoSuchStep = errors.New("no such step")

// stepOnce runs the user actions due before the next step, then the step.
func (s *Session) stepOnce() (sim.StepInfo, bool) {
	s.applyUserActions()
	info, ok := s.sim.Step()
	if !ok {
		return info, false
	}
	if s.forwardOnly {
		s.observeStep(info)
		return info, true
	}
	if info.Step <= len(s.history) {
		s.history[info.Step-1] = info
	} else {
		s.history = append(s.history, info)
	}
	if info.Step < len(s.samples) {
		// A step this run already computed (a replay after a rewind): the
		// run is deterministic and samples are dropped with the future
		// they describe (Apply), so the sample kept is this step's.
		if checkReplayedSamples {
			s.checkReplayedSample(info)
		}
	} else {
		s.setSample(info.Step, sample(s.sim, &info))
	}
	s.checkpointAfterStep()
	s.observeStep(info)
	return info, true
}

// observeStep calls the step observer, if any.
func (s *Session) observeStep(info sim.StepInfo) {
	if s.observer != nil {
		s.observer(info)
	}
}

// checkReplayedSamples makes a replayed step compute its sample again and
// panic unless it equals the one kept (tests set it: the kept sample
// stands for the computed one only because replays are deterministic).
var checkReplayedSamples = false

// checkReplayedSample panics unless the sample kept for the step just
// replayed is the one it would compute now.
func (s *Session) checkReplayedSample(info sim.StepInfo) {
	got, kept := sample(s.sim, &info), s.samples[info.Step]
	if got.At != kept.At || got.Step != kept.Step || !slices.Equal(got.ReplicaSets, kept.ReplicaSets) || !slices.Equal(got.Deployments, kept.Deployments) {
		panic(fmt.Sprintf("replayed step %d: sample %+v, the run kept %+v", info.Step, got, kept))
	}
}

// setSample stores the chart sample taken after step i.
func (s *Session) setSample(i int, smp Sample) {
	if i > 0 && i <= len(s.samples) {
		smp = shareUnchanged(s.samples[i-1], smp)
	}
	if i < len(s.samples) {
		s.samples[i] = smp
		return
	}
	s.samples = append(s.samples, smp)
}

// applyUserActions runs, in order, the user actions recorded at or before
// the current step count that have not run yet in this run.
func (s *Session) applyUserActions() {
	for s.nextUser < len(s.user) && s.user[s.nextUser].AtStep <= s.sim.Steps() {
		a := s.user[s.nextUser].Action
		s.nextUser++
		_, _ = s.run(a)
	}
}

// Advance moves forward by n units of g and returns the steps taken.
func (s *Session) Advance(g Granularity, n int) []sim.StepInfo {
	from := s.sim.Steps()
	undo := s.trailHead()
	out := s.advance(g, n)
	if undo != nil && s.sim.Steps() == from {
		undo()
	}
	return out
}

func (s *Session) advance(g Granularity, n int) []sim.StepInfo {
	var out []sim.StepInfo
	for i := 0; i < n; i++ {
		switch g {
		case ByEvent:
			info, ok := s.stepOnce()
			if !ok {
				return out
			}
			out = s.taken(out, info)
		case BySync:
			for {
				info, ok := s.stepOnce()
				if !ok {
					return out
				}
				out = s.taken(out, info)
				if info.Kind == sim.StepSync {
					break
				}
			}
		case BySettle:
			horizon := s.sim.Now().Add(s.sim.Options().Limits.SettleHorizon)
			for taken := 0; taken < settleMaxSteps; taken++ {
				at, ok := s.sim.NextDue()
				if !ok || at.After(horizon) {
					break
				}
				info, ok := s.stepOnce()
				if !ok {
					break
				}
				out = s.taken(out, info)
			}
			return out
		}
	}
	return out
}

// RunUntil steps until done holds or maxSteps steps were taken.
func (s *Session) RunUntil(done func(*sim.Sim) bool, maxSteps int) []sim.StepInfo {
	var out []sim.StepInfo
	for n := 0; n < maxSteps && !done(s.sim); n++ {
		info, ok := s.stepOnce()
		if !ok {
			break
		}
		out = s.taken(out, info)
	}
	return out
}

// Seek moves to the state right after step n (0: the start). It restores
// the last checkpoint at or before n when n is behind the current step (or
// when that checkpoint is ahead of it) and replays the steps from there.
func (s *Session) Seek(n int) error {
	if n < 0 {
		return fmt.Errorf("%w: %d", ErrNoSuchStep, n)
	}
	from := s.sim.Steps()
	if s.forwardOnly && n < from {
		return fmt.Errorf("%w: cannot go back to step %d from step %d", ErrForwardOnly, n, from)
	}
	if c := s.cps.nearest(n); n < from || c.sim.Step() > from {
		s.restore(c)
	}
	// A step back (a seek a little behind the current step) that replays
	// a long way leaves a scratch checkpoint shortly before n, for the
	// presses that usually follow. A seek farther away does not: taking a
	// checkpoint costs about as much as restoring one.
	scratchAt := -1
	if n < from && from-n <= s.cps.gap && n-s.sim.Steps() >= 2*s.cps.gap {
		scratchAt = n - s.cps.gap
	}
	defer s.replayToward(s.sim.Steps())()
	for s.sim.Steps() < n {
		if _, ok := s.stepOnce(); !ok {
			return fmt.Errorf("%w: the run ends at step %d", ErrNoSuchStep, s.sim.Steps())
		}
		if s.sim.Steps() == scratchAt {
			s.setScratch()
		}
	}
	// Actions recorded at exactly this step were made before the next step;
	// run them now so the state shown includes them.
	s.applyUserActions()
	return nil
}

// Apply performs a user action now, after the current step. It becomes part
// of the run: a replay re-applies it here. What was computed after the
// current step (an old future, after a rewind) is discarded, with the user
// actions recorded there. An action that panics is undone: it is dropped
// and the session restored to this step without it (*ActionPanicError).
func (s *Session) Apply(a scenario.Action) (msg string, err error) {
	s.applyUserActions()
	at := s.sim.Steps()
	// Before anything changes: a panic in what follows is restored to this
	// step under the new count (PodsToken).
	s.futures++
	s.user = s.user[:s.nextUser]
	if len(s.history) > at {
		s.history = s.history[:at]
		s.samples = s.samples[:at+1]
	}
	s.dropCheckpointsAfter(at)
	s.user = append(s.user, userAction{AtStep: at, Action: a})
	s.nextUser = len(s.user)
	defer func() {
		if p := recover(); p != nil {
			msg, err = "", s.undoPanickedAction(Describe(a), p, at)
		}
	}()
	return s.run(a)
}

// TimedUserAction is a user action with the virtual time (since the start)
// of the step it was recorded at.
type TimedUserAction struct {
	At     time.Duration
	Action scenario.Action
}

// UserActionsAt returns the user actions recorded at step n, in order: made
// while the run stood at n, they run with step n+1. A fork at n can do them
// before its own change (compare.Fork with Keep.At) or leave them out.
func (s *Session) UserActionsAt(n int) []scenario.Action {
	var out []scenario.Action
	for _, u := range s.user {
		if u.AtStep == n {
			out = append(out, u.Action)
		}
	}
	return out
}

// UserActionsAfter returns the user actions recorded after step n, in
// order, each with the virtual time of its step: a fork that changes
// something at n can do them again at the same moments of its own run
// (compare.Fork with Keep.Later), whose steps are numbered differently.
func (s *Session) UserActionsAfter(n int) []TimedUserAction {
	var out []TimedUserAction
	for _, u := range s.user {
		if u.AtStep <= n {
			continue
		}
		at := time.Duration(0)
		if u.AtStep > 0 && u.AtStep <= len(s.history) {
			at = s.history[u.AtStep-1].At
		}
		out = append(out, TimedUserAction{At: at, Action: u.Action})
	}
	return out
}

// run performs a through the simulator, recorded like a timeline action.
func (s *Session) run(a scenario.Action) (string, error) {
	var msg string
	err := s.sim.Do(&sim.Action{Name: Describe(a), Do: func(sm *sim.Sim) (string, error) {
		m, err := perform(sm, a)
		msg = m
		return m, err
	}})
	return msg, err
}
