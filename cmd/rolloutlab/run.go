package main

import (
	"bufio"
	"flag"
	"fmt"
	"strconv"

	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

const runSynopsis = "run FILE [--seed N] [--spec-only] [--until settle|DURATION|step=N] [--format text|json|state] [--tables actions|end|none]"

const runHelpText = `Plays a scenario headless and prints what the controllers did.

FILE is a scenario file, library:ID for an embedded scenario (see
` + "`rolloutlab list`" + `), or - to read the scenario from stdin.

--until says where to stop:
  settle     (default) settle, and again while timeline actions are pending
  DURATION   every event up to that virtual time since the start (90s, 2m)
  step=N     right after step N (0: after set-up)

--format says what to print:
  text   the timeline: each step, its trace records (decisions show their
         math), the scenario's notes (spec.annotations) under the step
         they fall at, and kubectl get deploy,rs,pods tables (--tables);
         at the end, a line for each note no step reached
  json   the trace in the versioned schema of docs/trace-schema.md
  state  every object at the end as a v1 List, like kubectl get -o json

Pasted cluster output (kubectl get deploy,rs,pods -o yaml) starts as the
initial state of the cluster; --spec-only starts from its specs. Notices
about the file (ignored kinds, replaced objects, fields dropped) go to
stderr.

The same scenario and seed always print the same bytes.

Exit codes: 0 ok; 1 the scenario is invalid, cannot be read, or the run was
stopped by a limit (the output is still printed); 2 usage error.
`

// runRun implements `rolloutlab run`.
func runRun(e env, args []string) exitCode {
	fs := newFlagSet(e, "run", runSynopsis)
	describe(fs, runSynopsis, runHelpText)
	seed := &seedFlag{}
	fs.Var(seed, "seed", "seed to use instead of the scenario's `N`")
	specOnly := fs.Bool("spec-only", false, "start pasted cluster output from its specs, not its state")
	untilArg := fs.String("until", "settle", "where to stop: settle, a virtual `time` (90s), or step=N")
	formatArg := fs.String("format", "text", "output: text, json or state")
	tablesArg := fs.String("tables", "actions", "text only: kubectl tables after each timeline action and at the end (actions), at the end (end), or none")
	pos, code, ok := parseArgs(e, fs, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(e, fs, "want exactly one FILE, got %d arguments", len(pos))
	}
	stop, err := parseUntil(*untilArg)
	if err != nil {
		return usageError(e, fs, "%v", err)
	}
	format, ok := parseFormat(*formatArg)
	if !ok {
		return usageError(e, fs, "unknown --format %q (want text, json or state)", *formatArg)
	}
	tables, ok := parseTables(*tablesArg)
	if !ok {
		return usageError(e, fs, "unknown --tables %q (want actions, end or none)", *tablesArg)
	}

	src, err := readSource(e, pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab run: %v\n", err)
		return sourceErrorCode(err)
	}
	s, err := session.LoadWith(src.name, src.data, session.LoadOptions{Seed: seed.value(), SpecOnly: *specOnly})
	if err != nil {
		lines := diagnostics(src.name, err)
		for _, l := range lines {
			fmt.Fprintln(e.stderr, l)
		}
		fmt.Fprintf(e.stderr, "rolloutlab run: %s is invalid: %s\n", src.name, plural(len(lines), "error"))
		return exitRuntime
	}
	// A headless run plays forward and seeks back only to print tables at
	// the actions: a few checkpoints do, and the memory goes to the run.
	s.SetCheckpointBudget(runCheckpointBudget)
	for _, l := range noticeLines(src.name, s.Scenario().Notices) {
		fmt.Fprintln(e.stderr, l)
	}
	out := bufio.NewWriter(e.stdout)
	// The timeline is written while the run is taken, the state needs only
	// the end, and the JSON trace only the steps and the trace: none keeps
	// checkpoints or chart samples. Only --until step=N writes the
	// timeline afterwards, since a step past the end prints nothing.
	var finish func() error
	var steps []sim.StepInfo
	switch {
	case format == formatText && stop.kind != untilStep:
		s.SetForwardOnly()
		finish = streamTimeline(out, s, src.name, stop, tables)
	case format == formatState:
		s.SetForwardOnly()
		rec := s.Sim().Recorder()
		s.SetStepObserver(func(sim.StepInfo) { rec.Forget(rec.Len()) })
	case format == formatJSON:
		s.SetForwardOnly()
		steps = []sim.StepInfo{}
		s.SetStepObserver(func(info sim.StepInfo) { steps = append(steps, info) })
	}
	if err := stop.drive(s); err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab run: --until %s: %v\n", stop, err)
		return exitRuntime
	}

	switch {
	case finish != nil:
		err = finish()
	case format == formatJSON:
		err = writeTraceJSON(out, s, steps)
	case format == formatState:
		err = writeState(out, s)
	default:
		err = writeTimeline(out, s, src.name, stop, tables)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab run: writing output: %v\n", err)
		return exitRuntime
	}
	if err := s.Sim().Err(); err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab run: %s (seed %d): run stopped at step %d: %v\n", src.name, s.Seed(), s.Step(), err)
		return exitRuntime
	}
	return exitOK
}

// seedFlag is --seed: unset means the scenario's own seed.
type seedFlag struct {
	// set records whether --seed was given; n is only meaningful then.
	set bool
	n   uint64
}

func (f *seedFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatUint(f.n, 10)
}

func (f *seedFlag) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("want a whole number from 0 to %d", uint64(1<<64-1))
	}
	f.set, f.n = true, n
	return nil
}

// runCheckpointBudget bounds the rewind checkpoints of `run` (see
// session.SetCheckpointBudget).
const runCheckpointBudget = 24 << 20

// value is the seed override for session.Load: nil when unset.
func (f *seedFlag) value() *uint64 {
	if !f.set {
		return nil
	}
	n := f.n
	return &n
}

var _ flag.Value = (*seedFlag)(nil)
