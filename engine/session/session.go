package session

import (
	"fmt"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// userAction is an action the user made, and the step count at which it was
// made (it runs before step AtStep+1).
type userAction struct {
	AtStep int
	Action scenario.Action
}

// Session is one loaded scenario and its simulation.
type Session struct {
	name   string
	source []byte
	scen   *scenario.Scenario
	// seed is the seed in use: the file's, or the override given to Load.
	seed uint64
	sim  *sim.Sim
	// user holds the user's actions sorted by AtStep (ties in order made).
	user []userAction
	// nextUser is the index in user of the first action not yet run in the
	// current run.
	nextUser int
	// history holds the StepInfo of steps 1..len(history) of the furthest
	// run computed; history[i].Step == i+1. It may extend past the current
	// step after a rewind.
	history []sim.StepInfo
	// samples[i] is the chart sample after step i (samples[0]: set-up).
	samples []Sample
	// timeline arms the scenario's actions one after another.
	timeline *timeline
	// cps are the rewind points Seek restores from.
	cps checkpoints
	// observer, when set, is called after every step the session takes
	// (checkers, recorders); it must only read the simulation.
	observer func(sim.StepInfo)
	// forwardOnly, once set, stops the keeping of history, samples and
	// checkpoints (SetForwardOnly).
	forwardOnly bool
	// futures counts the times the run after some step was rewritten (a
	// user action, one undone): part of View's PodsToken, since the same
	// resource version can then stand for different pods.
	futures uint64
}

// SetStepObserver makes the session call fn after every step it takes,
// including the steps a Seek replays after restoring a checkpoint (not the
// steps the checkpoint skips); nil removes it.
func (s *Session) SetStepObserver(fn func(sim.StepInfo)) { s.observer = fn }

// Load parses source and builds the simulation at step 0, with the
// command line's ceilings on the file's limits. A non-nil seed
// overrides the file's seed. Errors are *scenario.Error / scenario.ErrorList
// for file problems and *SetupError for objects the API server refused.
func Load(name string, source []byte, seed *uint64) (*Session, error) {
	return LoadWith(name, source, LoadOptions{Seed: seed})
}

// LoadOptions change how Load reads a scenario.
type LoadOptions struct {
	// Seed, when set, overrides the file's seed.
	Seed *uint64
	// SpecOnly starts pasted cluster output from its specs rather than its
	// state (scenario.Options.SpecOnly).
	SpecOnly bool
	// Ceilings are the front end's ceilings on the file's limits
	// (the browser's are stricter); scenario.CLICeilings when nil. A file
	// that asks for more, or for more replicas than its pod limit allows,
	// is refused before anything runs (scenario.CheckLimits).
	Ceilings *scenario.Ceilings
}

// LoadWith is Load with options.
func LoadWith(name string, source []byte, opts LoadOptions) (*Session, error) {
	seed := opts.Seed
	c := scenario.CLICeilings
	if opts.Ceilings != nil {
		c = *opts.Ceilings
	}
	scen, err := scenario.ParseWith(name, source, scenario.Options{SpecOnly: opts.SpecOnly})
	if err != nil {
		return nil, err
	}
	return FromScenario(name, source, scen, seed, c)
}

// Scenario returns the parsed scenario.
func (s *Session) Scenario() *scenario.Scenario { return s.scen }

// Source returns the scenario text the session was loaded from.
func (s *Session) Source() []byte { return s.source }

// Seed returns the seed in use.
func (s *Session) Seed() uint64 { return s.seed }

// Sim returns the live simulation (read-only use: views and checks).
func (s *Session) Sim() *sim.Sim { return s.sim }

// Step returns the number of steps taken in the current run.
func (s *Session) Step() int { return s.sim.Steps() }

// MaxStep returns the furthest step computed so far.
func (s *Session) MaxStep() int { return len(s.history) }

// History returns the StepInfo of every step computed (read-only). After a
// rewind it still lists the steps beyond the current one.
func (s *Session) History() []sim.StepInfo { return s.history }

// Samples returns the chart samples, one per step computed plus set-up.
func (s *Session) Samples() []Sample { return s.samples }

// options turns the scenario's cluster description into simulator options.
func (s *Session) options() sim.Options {
	o := sim.DefaultOptions(s.seed)
	c := s.scen.Cluster
	o.InformerLag = c.InformerLag
	o.ReplicaSetWorkers, o.DeploymentWorkers = c.Workers.ReplicaSet, c.Workers.Deployment
	o.Kubelet = c.KubeletConfig()
	o.TurnOrder = c.TurnOrder
	o.Limits.MaxPods = s.scen.Limits.MaxPods
	o.Limits.MaxSteps = s.scen.Limits.MaxSteps
	o.Limits.MaxTraceRecords = s.scen.Limits.MaxTraceRecords
	return o
}

// objectRef renders kind/name of a scenario object, with kubectl's
// " -n shop" outside the default namespace.
func objectRef(obj scenario.Object) string {
	m, ok := obj.Obj.(interface {
		GetName() string
		GetGenerateName() string
		GetNamespace() string
	})
	if !ok {
		return obj.Kind().String() + "/"
	}
	name := m.GetName()
	if name == "" {
		name = m.GetGenerateName() // a filled-in pod's name is generated at set-up
	}
	ref := obj.Kind().String() + "/" + name
	if ns := m.GetNamespace(); ns != "" && ns != "default" {
		ref += " -n " + ns
	}
	return ref
}

// SetupError is an object of the scenario the API server refused at time
// zero; Message is the API server's message. Problems has one entry per
// cause the API server gave, each at the line of the field it names; errors
// unwrap to them, so scenario.Errors lists them.
type SetupError struct {
	Doc, Row int
	Message  string
	Problems []*scenario.Error
}

// Line returns the line of the first problem, for the UI.
func (e *SetupError) Line() int {
	if len(e.Problems) > 0 && e.Problems[0].Line > 0 {
		return e.Problems[0].Line
	}
	return e.Row
}

func (e *SetupError) Error() string {
	return fmt.Sprintf("document %d, line %d: %s", e.Doc, e.Row, e.Message)
}

// Unwrap returns the problems as a *scenario.Error or scenario.ErrorList.
func (e *SetupError) Unwrap() error {
	switch len(e.Problems) {
	case 0:
		return nil
	case 1:
		return e.Problems[0]
	}
	return scenario.ErrorList(e.Problems)
}

// rebuild creates a fresh simulation at step 0: objects applied (or, for
// pasted cluster state, restored), timeline armed, the first checkpoint
// taken. The chart keeps only the set-up sample.
func (s *Session) rebuild() error {
	sm, err := sim.New(s.options())
	if err != nil {
		return err
	}
	for _, obj := range setupOrder(s.scen.Objects) {
		obj := obj
		act := &sim.Action{Name: "apply " + objectRef(obj), Do: func(sm *sim.Sim) (string, error) { return apply(sm, obj) }}
		if obj.Live {
			act = &sim.Action{Name: "restore " + objectRef(obj), Do: func(sm *sim.Sim) (string, error) { return restore(sm, obj) }}
		}
		if err := sm.Do(act); err != nil {
			return &SetupError{Doc: obj.Doc, Row: obj.Line, Message: err.Error(), Problems: setupProblems(s.name, obj, err)}
		}
	}
	s.sim = sm
	s.timeline = newTimeline(s.scen.Timeline)
	s.timeline.arm(sm)
	s.nextUser = 0
	s.setSample(0, sample(sm, nil))
	s.resetCheckpoints()
	return nil
}
