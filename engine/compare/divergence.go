package compare

import (
	"fmt"
	"strconv"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Divergence is the first step at which two runs' traces differ.
type Divergence struct {
	// Step is the step number (the same in both runs up to here); At its
	// virtual time in the run that got there first.
	Step int           `json:"step"`
	At   time.Duration `json:"atNs"`
	// A and B are what each run did at that step ("" when the run had
	// already ended).
	A string `json:"a"`
	B string `json:"b"`
	// RecordA and RecordB are the first trace records that differ, in
	// order ("" for none).
	RecordA string `json:"recordA,omitempty"`
	RecordB string `json:"recordB,omitempty"`
	// Words says it in one sentence.
	Words string `json:"words"`
}

// firstDivergence compares two runs unit by unit; nil when they are the
// same.
func firstDivergence(a, b *meter) *Divergence {
	n := max(len(a.units), len(b.units))
	for i := 0; i < n; i++ {
		var ua, ub *unit
		if i < len(a.units) {
			ua = &a.units[i]
		}
		if i < len(b.units) {
			ub = &b.units[i]
		}
		if ua != nil && ub != nil && ua.hash == ub.hash {
			continue
		}
		return describe(a, b, ua, ub)
	}
	return nil
}

func stepWords(u *unit) string {
	if u == nil {
		return ""
	}
	s := u.info.Kind.String() + " " + u.info.Component
	if u.info.Key != "" {
		s += " " + u.info.Key
	}
	return s
}

func records(m *meter, u *unit) []trace.Record {
	if u == nil || u.from > u.to {
		return nil
	}
	all := m.sm.Recorder().Since(u.from - 1)
	if uint64(len(all)) < u.to-u.from+1 {
		return nil // no longer retained
	}
	return all[:u.to-u.from+1]
}

func describe(a, b *meter, ua, ub *unit) *Divergence {
	d := &Divergence{A: stepWords(ua), B: stepWords(ub)}
	first := ua
	if first == nil {
		first = ub
	}
	d.Step, d.At = first.info.Step, first.info.At
	ra, rb := records(a, ua), records(b, ub)
	// preA, preB: the first differing record of that run is one of the
	// actions run just before the step (the fork's alternative, a user
	// action), not part of the step itself.
	preA, preB := false, false
	for i := 0; i < max(len(ra), len(rb)); i++ {
		var ta, tb string
		if i < len(ra) {
			ta = recordWords(ra[i])
			preA = ra[i].Seq < ua.info.FirstSeq
		}
		if i < len(rb) {
			tb = recordWords(rb[i])
			preB = rb[i].Seq < ub.info.FirstSeq
		}
		if ta != tb {
			d.RecordA, d.RecordB = ta, tb
			break
		}
	}
	pre := preA || preB
	actA, actB := d.RecordA, d.RecordB
	if !preA {
		actA = ""
	}
	if !preB {
		actB = ""
	}
	at := clock.FormatOffset(d.At)
	switch {
	case ua == nil:
		d.Words = fmt.Sprintf("%s ended at step %d; %s went on: step %d (%s) %s.", a.sum.Label, d.Step-1, b.sum.Label, d.Step, at, d.B)
	case ub == nil:
		d.Words = fmt.Sprintf("%s ended at step %d; %s went on: step %d (%s) %s.", b.sum.Label, d.Step-1, a.sum.Label, d.Step, at, d.A)
	case d.A != d.B || ua.info.At != ub.info.At:
		d.Words = fmt.Sprintf("The runs part at step %d: %s took %s at %s, %s took %s at %s.", d.Step,
			a.sum.Label, d.A, clock.FormatOffset(ua.info.At), b.sum.Label, d.B, clock.FormatOffset(ub.info.At))
	case pre:
		d.Words = fmt.Sprintf("The runs part before step %d (%s), in the actions run there: %s %s, %s %s.", d.Step, at,
			a.sum.Label, didWords(actA), b.sum.Label, didWords(actB))
	default:
		d.Words = fmt.Sprintf("The runs part at step %d (%s): both take %s but record different things; the first records that differ follow.", d.Step, at, d.A)
	}
	return d
}

// recordWords is a record without its sequence number and time.
func recordWords(r trace.Record) string {
	return r.Source + " " + r.Kind().String() + ": " + r.Data.Text()
}

// didWords says what a run did, for Words.
func didWords(record string) string {
	if record == "" {
		return "did nothing"
	}
	return "did " + strconv.Quote(record)
}
