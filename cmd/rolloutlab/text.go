package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// recordIndent starts every trace record line under its step line.
const recordIndent = "  "

// writeTimeline writes the text format of `run`: the trace header (with the
// seed), a line naming the scenario, then the set-up records and every step
// of the current run, each step as its StepInfo line followed by its trace
// records indented (decision records carry the controllers' math), kubectl
// tables where mode asks, and a last line saying how the run ended:
//
//	# rolloutlab trace v1 seed=1
//	# scenario adoption (library:adoption) --until settle
//	+0.000s set-up
//	  +0.000s sim sim: simulation start: seed=1 ...
//	...
//	+5.000s step 9 action timeline apply 1 object(s)
//	  +5.000s timeline action: apply 1 object(s): replicaset.apps/replicatest created
//
//	$ kubectl get deploy,rs,pods    # after step 9 at +5.000s
//	...
//	# end: step 36 at +10.000s; nothing is due
//
// Tables at earlier points are rendered by seeking the session back to them
// (an exact replay); the session is left at the step it was at.
func writeTimeline(w io.Writer, s *session.Session, name string, stop until, mode tablesMode) error {
	sm := s.Sim()
	final := s.Step()
	records := sm.Recorder()
	steps := append([]sim.StepInfo(nil), s.History()[:final]...)
	endLine := endSummary(s)
	ns := tableNamespace(s.Scenario())
	var endTable string
	if mode != tablesNone {
		endTable = getAll(sm, ns)
	}
	// tables[i] is the table after step i, for set-up and action steps.
	tables := map[int]string{}
	if mode == tablesActions {
		points := []int{0}
		for _, info := range actionSteps(s) {
			points = append(points, info.Step)
		}
		for _, p := range points {
			if err := s.Seek(p); err != nil {
				return err
			}
			tables[p] = getAll(s.Sim(), ns)
		}
		if err := s.Seek(final); err != nil {
			return err
		}
	}

	var b strings.Builder
	b.WriteString(sm.Recorder().Header() + "\n")
	fmt.Fprintf(&b, "# scenario %s (%s) --until %s\n", s.Scenario().Name, name, stop)
	b.WriteString(clock.FormatOffset(0) + " set-up\n")
	next := writeRecords(&b, records, 0, func(r trace.Record) bool { return r.Step == 0 })
	if t, ok := tables[0]; ok {
		writeTable(&b, ns, t, "after set-up at "+clock.FormatOffset(0))
	}
	for _, info := range steps {
		b.WriteString(info.Text() + "\n")
		next = writeRecords(&b, records, next, func(r trace.Record) bool { return r.Seq <= info.LastSeq })
		if t, ok := tables[info.Step]; ok {
			writeTable(&b, ns, t, fmt.Sprintf("after step %d at %s", info.Step, clock.FormatOffset(info.At)))
		}
		if b.Len() > 1<<16 {
			if _, err := io.WriteString(w, b.String()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	// Records after the last step (a limit's note) belong to no step.
	writeRecords(&b, records, next, func(trace.Record) bool { return true })
	if mode != tablesNone {
		writeTable(&b, ns, endTable, "at the end")
	}
	b.WriteString(endLine + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRecords writes the records from index from on while in holds, indented, and returns
// the index of the first record not written.
func writeRecords(b *strings.Builder, records *trace.Recorder, from int, in func(trace.Record) bool) int {
	i := from
	for ; i < records.Len() && in(records.At(i)); i++ {
		b.WriteString(recordIndent + records.At(i).Text() + "\n")
	}
	return i
}

// writeTable writes a kubectl table of namespace ns as a shell transcript,
// set off by blank lines, with when as a comment.
func writeTable(b *strings.Builder, ns, table, when string) {
	fmt.Fprintf(b, "\n$ %s    # %s\n%s\n", getAllCommand(ns), when, table)
}

// endSummary is the last line of the timeline: where the run ended and
// why it stopped there.
func endSummary(s *session.Session) string {
	sm := s.Sim()
	line := fmt.Sprintf("# end: step %d at %s", s.Step(), clock.FormatOffset(sm.Clock().Elapsed()))
	if err := sm.Err(); err != nil {
		return line + "; run stopped: " + err.Error()
	}
	if pending := sm.PendingActions(); len(pending) > 0 {
		line += "; " + plural(len(pending), "timeline action") + " pending: " + strings.Join(pending, "; ")
	}
	if sm.Idle() {
		return line + "; nothing is due"
	}
	if at, ok := sm.NextDue(); ok {
		line += "; next event due at " + clock.FormatOffset(at.Sub(sm.Clock().Start()))
	}
	return line
}
