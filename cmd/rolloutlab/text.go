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
// records indented (decision records carry the controllers' math), the
// scenario's notes that fall at it, kubectl tables where mode asks, lines
// for the notes no step reached, and a last line saying how the run ended:
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
// It writes a run already taken: tables at earlier points are rendered by
// seeking the session back to them (an exact replay); the session is left
// at the step it was at. streamTimeline writes the same bytes while the run
// is taken.
func writeTimeline(w io.Writer, s *session.Session, name string, stop until, mode tablesMode) error {
	sm := s.Sim()
	final := s.Step()
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

	t := newTimelineWriter(w, s, name, stop, mode)
	t.begin(tables[0])
	for _, info := range steps {
		t.step(info, tables[info.Step])
	}
	t.end(endTable, endLine)
	return t.err
}

// streamTimeline prepares a forward-only session (session.SetForwardOnly)
// standing at set-up to have its timeline written while it runs: it writes
// the head and the set-up, and writes each step as the session takes it,
// releasing the trace records written. The caller drives the session, then
// calls the returned finish, which writes the end and returns the first
// write error. The bytes are writeTimeline's for the same run.
func streamTimeline(w io.Writer, s *session.Session, name string, stop until, mode tablesMode) (finish func() error) {
	t := newTimelineWriter(w, s, name, stop, mode)
	t.begin(t.table(mode == tablesActions))
	s.SetStepObserver(func(info sim.StepInfo) {
		t.step(info, t.table(mode == tablesActions && info.Kind == sim.StepAction))
		t.records.Forget(t.next)
	})
	return func() error {
		s.SetStepObserver(nil)
		t.end(t.table(mode != tablesNone), endSummary(s))
		return t.err
	}
}

// timelineWriter writes the text format piece by piece: begin, one step
// at a time, end. Output is buffered and written in pieces of about 64 KiB;
// after a write error nothing more is written and err keeps the error.
type timelineWriter struct {
	w       io.Writer
	sm      *sim.Sim
	records *trace.Recorder
	// reader reads the records in order, one step's at a time.
	reader *trace.Reader
	// ns is the namespace the tables list (tableNamespace).
	ns   string
	mode tablesMode
	// notes places the scenario's notes as the records are written.
	notes *notePlacer
	b     strings.Builder
	// next is the index of the first trace record not yet written.
	next int
	// last is the last step written (0: set-up).
	last int
	err  error
}

func newTimelineWriter(w io.Writer, s *session.Session, name string, stop until, mode tablesMode) *timelineWriter {
	sm := s.Sim()
	t := &timelineWriter{w: w, sm: sm, records: sm.Recorder(), reader: sm.Recorder().NewReader(0), ns: tableNamespace(s.Scenario()), mode: mode,
		notes: newNotePlacer(s.Scenario().Annotations)}
	t.b.WriteString(t.records.Header() + "\n")
	fmt.Fprintf(&t.b, "# scenario %s (%s) --until %s\n", s.Scenario().Name, name, stop)
	return t
}

// table renders the tables of the current state when want holds, "" otherwise.
func (t *timelineWriter) table(want bool) string {
	if !want {
		return ""
	}
	return getAll(t.sm, t.ns)
}

// begin writes the set-up records, then table ("" for none) as the state
// after set-up.
func (t *timelineWriter) begin(table string) {
	t.b.WriteString(clock.FormatOffset(0) + " set-up\n")
	t.writeRecords(func(r trace.Record) bool { return r.Step == 0 })
	t.notes.write(&t.b, 0)
	if table != "" {
		writeTable(&t.b, t.ns, table, "after set-up at "+clock.FormatOffset(0))
	}
}

// step writes one step's line and records, then table ("" for none) as the
// state after it.
func (t *timelineWriter) step(info sim.StepInfo, table string) {
	t.b.WriteString(info.Text() + "\n")
	t.writeRecords(func(r trace.Record) bool { return r.Seq <= info.LastSeq })
	t.notes.write(&t.b, info.Step)
	t.last = info.Step
	if table != "" {
		writeTable(&t.b, t.ns, table, fmt.Sprintf("after step %d at %s", info.Step, clock.FormatOffset(info.At)))
	}
	if t.b.Len() > 1<<16 {
		t.flush()
	}
}

// end writes the records after the last step (a limit's note belongs to no
// step), endTable ("" for none) as the state at the end, the notes no step
// reached, and endLine, and flushes.
func (t *timelineWriter) end(endTable, endLine string) {
	t.writeRecords(func(trace.Record) bool { return true })
	if t.mode != tablesNone {
		writeTable(&t.b, t.ns, endTable, "at the end")
	}
	t.notes.writeMissed(&t.b, t.last)
	t.b.WriteString(endLine + "\n")
	t.flush()
}

// flush writes out what is buffered, unless an earlier write failed.
func (t *timelineWriter) flush() {
	if t.err == nil {
		_, t.err = io.WriteString(t.w, t.b.String())
	}
	t.b.Reset()
}

// writeRecords writes the records the reader reads while in holds,
// indented, counting them for the notes; next is then the index of the
// first record not written.
func (t *timelineWriter) writeRecords(in func(trace.Record) bool) {
	t.reader.Each(func(r trace.Record) bool {
		if !in(r) {
			return false
		}
		t.b.WriteString(recordIndent + r.Text() + "\n")
		t.notes.record(r)
		return true
	})
	t.next = t.reader.Next()
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
