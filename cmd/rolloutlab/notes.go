package main

import (
	"fmt"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// notePlacer follows a run's records as the timeline writes them and says
// which of the scenario's notes (spec.annotations) fall at each step, as
// the app's presenter and embedded player place them: a {step: N} note at
// step N, a {record: T, nth: K} note at the step of the Kth decision record
// of type T. A scenario's author reads in the timeline where each note
// lands, and at its end which never did.
type notePlacer struct {
	anns []scenario.Annotation
	// seen counts the decision records of each type read so far.
	seen map[string]int
	// at[i] is the step note i fell at; -1 while it has not.
	at []int
}

func newNotePlacer(anns []scenario.Annotation) *notePlacer {
	p := &notePlacer{anns: anns, seen: map[string]int{}, at: make([]int, len(anns))}
	for i := range p.at {
		p.at[i] = -1
	}
	return p
}

// record counts r when it is a decision record.
func (p *notePlacer) record(r trace.Record) {
	if r.Kind() == trace.KindDecision {
		p.seen[trace.TypeName(r.Data)]++
	}
}

// place returns the notes that fall at step, its records counted, in file
// order, and marks them placed.
func (p *notePlacer) place(step int) []int {
	var out []int
	for i, a := range p.anns {
		if p.at[i] >= 0 {
			continue
		}
		if (a.At.Record == "" && a.At.Step == step) || (a.At.Record != "" && p.seen[a.At.Record] >= a.At.Nth) {
			p.at[i] = step
			out = append(out, i)
		}
	}
	return out
}

// write writes the notes at step (place), each as its title and text in
// comment lines under the step: every line of a text written as a block
// (text: |) is a comment line too, blank ones included, so that a note
// never looks like a record or ends a table's block.
func (p *notePlacer) write(b *strings.Builder, step int) {
	for _, i := range p.place(step) {
		a := p.anns[i]
		fmt.Fprintf(b, "%s# note %d of %d: %s\n", recordIndent, i+1, len(p.anns), strings.Join(strings.Fields(a.Title), " "))
		if text := strings.TrimRight(a.Text, "\n"); text != "" {
			for _, line := range strings.Split(text, "\n") {
				if line == "" {
					b.WriteString(recordIndent + "#\n")
					continue
				}
				fmt.Fprintf(b, "%s#   %s\n", recordIndent, line)
			}
		}
	}
}

// writeMissed writes a line for each note that fell at no step up to last
// (the timeline's last step), saying what it waits for.
func (p *notePlacer) writeMissed(b *strings.Builder, last int) {
	for i, a := range p.anns {
		if p.at[i] >= 0 {
			continue
		}
		why := fmt.Sprintf("it is at step %d", a.At.Step)
		if a.At.Record != "" {
			why = fmt.Sprintf("it waits for %s decision record #%d (%d seen)", a.At.Record, a.At.Nth, p.seen[a.At.Record])
		}
		fmt.Fprintf(b, "# note %d of %d (line %d, %q) not reached by step %d: %s\n", i+1, len(p.anns), a.Line, a.Title, last, why)
	}
}
