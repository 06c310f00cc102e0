package compare

import (
	"fmt"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// Side is one run of a comparison.
type Side struct {
	// Label names the run in summaries and sentences ("A", "maxSurge 100%").
	Label string
	// Session stands at the fork step; Compare plays it to its end.
	Session *session.Session
	// Actions are applied, in order, at the fork step before the run goes
	// on (the alternative, after the user's own actions there that it keeps).
	Actions []scenario.Action
	// Later are done after Actions, each once the run's clock has reached
	// its time (the user's later actions, kept by Fork with Keep.Later):
	// when the run is idle before that, at the moment it went idle.
	Later []session.TimedUserAction
}

// Result is a finished comparison.
type Result struct {
	A Summary `json:"a"`
	B Summary `json:"b"`
	// Divergence is nil when the two runs are the same step for step.
	Divergence *Divergence `json:"divergence"`
	Events     EventDiff   `json:"events"`
	// ActionsAt describes the user actions made at the fork step (Fork),
	// which A runs; KeptAt says whether B runs them too, before its own.
	ActionsAt []string `json:"actionsAt,omitempty"`
	KeptAt    bool     `json:"keptAt"`
	// LaterActions is the number of user actions made after the fork step
	// (Fork), which A runs; KeptLater says whether B runs them too.
	LaterActions int  `json:"laterActions"`
	KeptLater    bool `json:"keptLater"`
}

// Compare applies each side's actions and plays both runs to their end
// (session.RunToEnd), measuring them from the fork. Both sessions must stand
// at the same step. An action the API server refuses is an error naming the
// side. A comparison only plays forward, so the sessions are left with the
// fewest rewind checkpoints (session.SetCheckpointBudget): the page's
// "What if, instead?" runs two forks to the end beside the run on screen,
// and with the rewind budget each could hold up to 200 MB of checkpoints
// that nothing would use (TestForkKeepsFewCheckpoints).
func Compare(a, b Side) (*Result, error) {
	if a.Session.Step() != b.Session.Step() {
		return nil, fmt.Errorf("the runs stand at different steps (%d and %d)", a.Session.Step(), b.Session.Step())
	}
	ma, err := play(a)
	if err != nil {
		return nil, err
	}
	mb, err := play(b)
	if err != nil {
		return nil, err
	}
	r := &Result{A: ma.finish(), B: mb.finish(), Divergence: firstDivergence(ma, mb), Events: diffEvents(ma.events, mb.events)}
	return r, nil
}

// play runs one side and returns its meter.
func play(side Side) (*meter, error) {
	s := side.Session
	s.SetCheckpointBudget(1)
	m := newMeter(side.Label, s, uint64(s.Sim().Recorder().Len()))
	s.RunDueActions()
	for _, a := range side.Actions {
		if _, err := s.Apply(a); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", side.Label, session.Describe(a), err)
		}
	}
	m.measure()
	s.SetStepObserver(func(info sim.StepInfo) { m.observe(&info) })
	defer s.SetStepObserver(nil)
	for _, l := range side.Later {
		s.RunToTime(l.At)
		// Its records count with the next step, as a user action's do.
		if _, err := s.Apply(l.Action); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", side.Label, session.Describe(l.Action), err)
		}
	}
	s.RunToEnd()
	return m, nil
}

// Keep says which of the user's own actions a fork does again besides its
// alternative.
type Keep struct {
	// At: the user actions made at the fork step run first, and the
	// alternative after them ("this as well"); otherwise the alternative
	// runs instead of them.
	At bool
	// Later: the user actions made after the fork step run again at the
	// virtual times they were made at; otherwise they are left out.
	Later bool
}

// Fork compares the run of s as recorded (A: its user actions kept, later
// ones included) with the run forked at step n in which alt is done, named
// label (B, or C, D... when a page compares several alternatives with A;
// "B" when empty). What else B does is keep's choice:
//   - the user actions made at n: before alt with keep.At, otherwise alt is
//     done instead of them;
//   - the user actions made after n: with keep.Later done again in B at the
//     virtual times they were made at (B's steps are numbered differently;
//     a B that is idle by then does them when it went idle), otherwise left
//     out.
//
// The result names the actions made at n (ActionsAt) and counts those made
// after it (LaterActions), and says which ones B kept. s itself is not
// moved; the two runs are new sessions, returned with the result for their
// samples.
func Fork(s *session.Session, n int, label string, alt []scenario.Action, keep Keep) (*Result, *session.Session, *session.Session, error) {
	if label == "" {
		label = "B"
	}
	a, err := s.ForkAt(n, true)
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := s.ForkAt(n, false)
	if err != nil {
		return nil, nil, nil, err
	}
	at, later := s.UserActionsAt(n), s.UserActionsAfter(n)
	side := Side{Label: label, Session: b, Actions: alt}
	if keep.At {
		side.Actions = append(append([]scenario.Action(nil), at...), alt...)
	}
	if keep.Later {
		side.Later = later
	}
	r, err := Compare(Side{Label: "A", Session: a}, side)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, act := range at {
		r.ActionsAt = append(r.ActionsAt, session.Describe(act))
	}
	r.KeptAt = keep.At && len(at) > 0
	r.LaterActions, r.KeptLater = len(later), keep.Later && len(later) > 0
	return r, a, b, nil
}

// Files compares two scenario files from step 0; the labels are the names.
func Files(nameA string, srcA []byte, nameB string, srcB []byte, seed *uint64) (*Result, error) {
	a, err := session.Load(nameA, srcA, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", nameA, err)
	}
	b, err := session.Load(nameB, srcB, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", nameB, err)
	}
	return Compare(Side{Label: nameA, Session: a}, Side{Label: nameB, Session: b})
}

// WithOverrides compares a scenario file (A, labelled with its name) with
// the same file changed by overrides (B, labelled with them), from step 0.
func WithOverrides(name string, src []byte, overrides []Override, seed *uint64) (*Result, error) {
	a, err := session.Load(name, src, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	b, err := Overridden(name, src, overrides, seed)
	if err != nil {
		return nil, err
	}
	return Compare(Side{Label: name, Session: a}, Side{Label: OverridesLabel(overrides), Session: b})
}

// Overridden loads a scenario file with overrides applied to its
// Deployments, at step 0.
func Overridden(name string, src []byte, overrides []Override, seed *uint64) (*session.Session, error) {
	scen, err := scenario.Parse(name, src)
	if err != nil {
		return nil, err
	}
	if err := ApplyOverrides(scen, overrides); err != nil {
		return nil, err
	}
	b, err := session.FromScenario(name, src, scen, seed, scenario.CLICeilings)
	if err != nil {
		return nil, fmt.Errorf("%s with --set: %w", name, err)
	}
	return b, nil
}

// OverridesLabel names a run by its overrides, as typed.
func OverridesLabel(overrides []Override) string {
	words := make([]string, len(overrides))
	for i, o := range overrides {
		words[i] = o.String()
	}
	return strings.Join(words, " ")
}
