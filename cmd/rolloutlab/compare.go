package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/compare"
	"github.com/rolloutlab/rolloutlab/engine/session"
)

const compareSynopsis = "compare A.yaml (B.yaml | [--both [deployment/NAME:]PATH=VALUE ...] --set [deployment/NAME:]PATH=VALUE ...) [--seed N] [--format text|json] [--events N]"

const compareHelpText = `Plays two futures of a cluster to their end and prints how they differ:
a summary table, the first step at which their traces differ, and the
Events only one of them recorded.

The two runs are either two scenario files (A.yaml B.yaml), or one file and
the same file with --set overrides applied to a Deployment (B):

  rolloutlab compare web.yaml --set spec.strategy.rollingUpdate.maxSurge=100%
  rolloutlab compare web.yaml --set deployment/api:spec.replicas=12

--both changes the file for both runs, before B's --set: two futures of
the same change. A new image rolled out with the Deployment's strategy (A)
and with maxSurge 100% (B), from what kubectl get -o yaml printed:

  rolloutlab compare live.yaml \
    --both 'spec.template.spec.containers[0].image=app:2' \
    --set spec.strategy.rollingUpdate.maxSurge=100%

PATH is a field path as in YAML, with [i] for a list element
(spec.template.spec.containers[1].image=app:2); without deployment/NAME:
it applies to the file's first Deployment. VALUE is an integer, true/false,
or a string ("100%"; double quotes force a string). --set and --both may
be repeated.

FILE is a path, library:ID for an embedded scenario, or - for stdin (once).

The summary, measured from step 0 to each run's end:
  time to complete     virtual time until every Deployment is rolled out
                       (kubectl rollout status succeeds) for good, with no
                       timeline action pending
  peak pods (surge)    most active pods at once, and by how many they
                       exceeded the desired replicas
  peak RS total        most spec.replicas summed over the ReplicaSets
                       (what maxSurge bounds: replicas + maxSurge)
  min available        fewest available pods once all had been available
  pods created/deleted pod create requests; pods deleted (once each)
  syncs                controller syncs per controller

Exit codes: 0 ok; 1 a file is invalid or cannot be read, or a run was stopped
by a limit (the comparison is still printed); 2 usage error.
`

// setFlags is a repeatable --set.
type setFlags []string

func (f *setFlags) String() string     { return strings.Join(*f, " ") }
func (f *setFlags) Set(s string) error { *f = append(*f, s); return nil }

// runCompare implements `rolloutlab compare`.
func runCompare(e env, args []string) exitCode {
	fs := newFlagSet(e, "compare", compareSynopsis)
	describe(fs, compareSynopsis, compareHelpText)
	seed := &seedFlag{}
	fs.Var(seed, "seed", "seed to use for both runs instead of the scenarios' `N`")
	var sets, both setFlags
	fs.Var(&sets, "set", "override `[deployment/NAME:]PATH=VALUE` in B (repeatable)")
	fs.Var(&both, "both", "override `[deployment/NAME:]PATH=VALUE` in A and B, before B's --set (repeatable)")
	formatArg := fs.String("format", "text", "output: text or json")
	eventsArg := fs.Int("events", 20, "text only: list at most `N` Events only in A and N only in B (json lists all)")
	pos, code, ok := parseArgs(e, fs, args)
	if !ok {
		return code
	}
	switch {
	case len(both) > 0 && len(sets) == 0:
		return usageError(e, fs, "--both needs --set: it changes both runs, and --set says how B differs")
	case len(sets) == 0 && len(pos) != 2:
		return usageError(e, fs, "want two files, or one file and --set; got %d files", len(pos))
	case len(sets) > 0 && len(pos) != 1:
		return usageError(e, fs, "with --set, want exactly one file; got %d", len(pos))
	case *formatArg != "text" && *formatArg != "json":
		return usageError(e, fs, "unknown --format %q (want text or json)", *formatArg)
	case *eventsArg < 0:
		return usageError(e, fs, "--events must be 0 or more")
	}
	overrides, err := parseOverrides(sets)
	if err != nil {
		return usageError(e, fs, "%v", err)
	}
	common, err := parseOverrides(both)
	if err != nil {
		return usageError(e, fs, "%v", err)
	}

	var sides [2]compare.Side
	for i, arg := range pos {
		src, err := readSource(e, arg)
		if err != nil {
			fmt.Fprintf(e.stderr, "rolloutlab compare: %v\n", err)
			return sourceErrorCode(err)
		}
		label := src.name
		var s *session.Session
		if len(common) > 0 {
			if s, err = compare.Overridden(src.name, src.data, common, seed.value()); err != nil {
				return invalidFile(e, src.name+" with --both", err)
			}
			label += " " + compare.OverridesLabel(common)
		} else if s, err = session.Load(src.name, src.data, seed.value()); err != nil {
			return invalidFile(e, src.name, err)
		}
		sides[i] = compare.Side{Label: label, Session: s}
		if len(overrides) > 0 {
			b, err := compare.Overridden(src.name, src.data, append(common, overrides...), seed.value())
			if err != nil {
				return invalidFile(e, src.name+" with --set", err)
			}
			sides[1] = compare.Side{Label: compare.OverridesLabel(overrides), Session: b}
		}
	}
	r, err := compare.Compare(sides[0], sides[1])
	if err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab compare: %v\n", err)
		return exitRuntime
	}
	out := bufio.NewWriter(e.stdout)
	if *formatArg == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		err = enc.Encode(r)
	} else {
		writeComparison(out, r, *eventsArg)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab compare: writing output: %v\n", err)
		return exitRuntime
	}
	code = exitOK
	for _, s := range []compare.Summary{r.A, r.B} {
		if s.Stopped != "" {
			fmt.Fprintf(e.stderr, "rolloutlab compare: %s: run stopped at step %d: %s\n", s.Label, s.EndStep, s.Stopped)
			code = exitRuntime
		}
	}
	return code
}

// parseOverrides parses --set or --both arguments.
func parseOverrides(args []string) ([]compare.Override, error) {
	var out []compare.Override
	for _, a := range args {
		o, err := compare.ParseOverride(a)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func invalidFile(e env, name string, err error) exitCode {
	lines := diagnostics(name, err)
	for _, l := range lines {
		fmt.Fprintln(e.stderr, l)
	}
	fmt.Fprintf(e.stderr, "rolloutlab compare: %s is invalid: %s\n", name, plural(len(lines), "error"))
	return exitRuntime
}

// writeComparison prints the summary table, the first divergence and the
// Event diff.
func writeComparison(w io.Writer, r *compare.Result, maxEvents int) {
	fmt.Fprintf(w, "A: %s\nB: %s\n", r.A.Label, r.B.Label)
	fmt.Fprintf(w, "Both from step %d (%s).\n\n", r.A.ForkStep, clock.FormatOffset(r.A.ForkAt))
	tw := tabwriter.NewWriter(w, 0, 4, 3, ' ', 0)
	row := func(name string, a, b string) { fmt.Fprintf(tw, "%s\t%s\t%s\n", name, a, b) }
	row("", "A", "B")
	row("time to complete", completeText(r.A), completeText(r.B))
	row("peak pods (surge)", fmt.Sprintf("%d (+%d)", r.A.PeakPods, r.A.PeakSurge), fmt.Sprintf("%d (+%d)", r.B.PeakPods, r.B.PeakSurge))
	row("peak RS total", itoa32(r.A.PeakReplicaSetTotal), itoa32(r.B.PeakReplicaSetTotal))
	row("min available", strconv.Itoa(r.A.MinAvailable), strconv.Itoa(r.B.MinAvailable))
	row("pods created", strconv.Itoa(r.A.PodsCreated), strconv.Itoa(r.B.PodsCreated))
	row("pods deleted", strconv.Itoa(r.A.PodsDeleted), strconv.Itoa(r.B.PodsDeleted))
	for _, c := range controllers(r) {
		row("syncs "+c, strconv.Itoa(r.A.Syncs[c]), strconv.Itoa(r.B.Syncs[c]))
	}
	row("steps", strconv.Itoa(r.A.EndStep-r.A.ForkStep), strconv.Itoa(r.B.EndStep-r.B.ForkStep))
	tw.Flush()
	fmt.Fprintln(w, "\nFinal state:")
	for _, side := range []struct {
		name string
		s    compare.Summary
	}{{"A", r.A}, {"B", r.B}} {
		prefix := side.name + ": "
		for _, l := range finalLines(side.s) {
			fmt.Fprintf(w, "  %s%s\n", prefix, l)
			prefix = "   "
		}
	}
	fmt.Fprintln(w)
	if d := r.Divergence; d == nil {
		fmt.Fprintln(w, "The runs are the same step for step.")
	} else {
		fmt.Fprintf(w, "First divergence: %s\n", d.Words)
		if d.RecordA != "" || d.RecordB != "" {
			fmt.Fprintf(w, "  A: %s\n  B: %s\n", orNone(d.RecordA), orNone(d.RecordB))
		}
	}
	writeEvents(w, "A", r.Events.OnlyA, maxEvents)
	writeEvents(w, "B", r.Events.OnlyB, maxEvents)
	fmt.Fprintf(w, "\nEvents in both: %d\n", r.Events.Common)
}

func completeText(s compare.Summary) string {
	if !s.Complete {
		return "not complete"
	}
	return fmt.Sprintf("%s (at %s)", s.TimeToComplete.Round(time.Millisecond), clock.FormatOffset(s.CompleteAt))
}

func controllers(r *compare.Result) []string {
	var out []string
	for _, c := range []string{"deployment-controller", "replicaset-controller"} {
		if r.A.Syncs[c]+r.B.Syncs[c] > 0 {
			out = append(out, c)
		}
	}
	return out
}

// finalLines renders each Deployment at the end, e.g.
// "deployment/web 20/20 available, nginx:1.26" then "  rs web-7f6f 20, web-7b78 0".
func finalLines(s compare.Summary) []string {
	var out []string
	for _, d := range s.Final {
		state := "rolling"
		if d.Complete {
			state = "complete"
		}
		out = append(out, fmt.Sprintf("deployment/%s %d/%d available, %s, %s", d.Name, d.Available, d.Replicas, state, strings.Join(d.Images, ",")))
		var rs []string
		for _, r := range d.ReplicaSets {
			rs = append(rs, fmt.Sprintf("%s=%d", r.Name, r.Replicas))
		}
		out = append(out, "  replicasets "+strings.Join(rs, " "))
	}
	return out
}

func writeEvents(w io.Writer, side string, lines []compare.EventLine, limit int) {
	fmt.Fprintf(w, "\nEvents only in %s: %d\n", side, len(lines))
	for i, l := range lines {
		if i == limit {
			fmt.Fprintf(w, "  ... and %d more (--events N, or --format json)\n", len(lines)-limit)
			break
		}
		fmt.Fprintf(w, "  %s  %s\n", clock.FormatOffset(l.At), l.Line)
	}
}

func orNone(s string) string {
	if s == "" {
		return "(nothing)"
	}
	return s
}

func itoa32(n int32) string { return strconv.Itoa(int(n)) }
