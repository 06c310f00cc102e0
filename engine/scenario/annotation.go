package scenario

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Annotation is one entry of spec.annotations: a step worth pausing at,
// with a note for a presenter. Annotations never change the simulation;
// they are read by the UI only.
type Annotation struct {
	// At says when the note applies: exactly one of Step (> 0) and Record
	// is set.
	At AnnotationAt `json:"at"`
	// Title is a short heading (at most MaxAnnotationTitle characters, not
	// blank).
	Title string `json:"title"`
	// Text is the note (at most MaxAnnotationText characters; may be empty).
	Text string `json:"text,omitempty"`
	// Translations are the title and text in other languages, by language
	// tag (see translations.go); nil when there are none.
	Translations map[string]AnnotationText `json:"translations,omitempty"`
	// Line is the line of the entry in the file.
	Line int `json:"line"`
}

// AnnotationAt is an annotation's position in the run.
type AnnotationAt struct {
	// Step is a simulator step number (1-based), or 0 when Record is used.
	Step int `json:"step,omitempty"`
	// Record is a decision record type (one of AnnotationRecordTypes): the
	// note applies at the step holding the Nth record of that type.
	Record string `json:"record,omitempty"`
	// Nth counts records of type Record from 1; 1 when Record is set and
	// the file omits it, 0 otherwise.
	Nth int `json:"nth,omitempty"`
}

// Bounds of spec.annotations.
const (
	MaxAnnotations     = 100
	MaxAnnotationTitle = 200
	MaxAnnotationText  = 2000
)

// AnnotationRecordTypes are the decision records an annotation can point at.
var AnnotationRecordTypes = []string{
	"FencepostMath", "ScalingEventMath", "ScaleMath", "NewRSMath", "ReconcileNewMath",
	"OldScaleDownMath", "CleanupPlan", "ExpectationsCheck", "ManageDecision", "DeletionRanking",
	"ClaimDecision", "RolloutStatusDecision",
}

var (
	annotationFields   = []string{"at", "title", "text", "translations"}
	annotationAtFields = []string{"step", "record", "nth"}
)

// decodeAnnotations reads spec.annotations.
func (r *docReader) decodeAnnotations(n *node, path string, s *Scenario) {
	n = resolve(n)
	if n == nil || n.Kind != sequenceNode {
		if n != nil && n.Kind == scalarNode && n.Tag == tagNull {
			return
		}
		r.errorf(n, path, "expected a list of annotations, got "+describe(n))
		return
	}
	if len(n.Content) > MaxAnnotations {
		r.errorf(n, path, "too many annotations: the limit is "+strconv.Itoa(MaxAnnotations))
		return
	}
	for i, e := range n.Content {
		if a, ok := r.decodeAnnotation(e, index(path, i)); ok {
			s.Annotations = append(s.Annotations, a)
		}
	}
}

// decodeAnnotation reads one annotation; ok is false when it had an error.
func (r *docReader) decodeAnnotation(n *node, path string) (Annotation, bool) {
	before := r.p.count()
	m, ok := r.mapping(n, path, annotationFields)
	if !ok {
		return Annotation{}, false
	}
	n = resolve(n)
	a := Annotation{Line: n.Line + r.lineOffset}
	if f, ok := m["title"]; ok {
		a.Title, _ = r.annotationTitle(f, join(path, "title"))
	} else {
		r.errorf(n, join(path, "title"), "required field is missing")
	}
	if f, ok := m["text"]; ok {
		a.Text, _ = r.annotationText(f, join(path, "text"))
	}
	if f, ok := m["translations"]; ok {
		r.decodeAnnotationTranslations(f.value, join(path, "translations"), &a)
	}
	f, ok := m["at"]
	if !ok {
		r.errorf(n, join(path, "at"), "required field is missing: {step: N} or {record: TYPE}")
		return a, false
	}
	r.decodeAnnotationAt(f.value, join(path, "at"), &a.At)
	return a, r.p.count() == before
}

// annotationTitle reads an annotation's title, or a translation of it:
// between 1 and MaxAnnotationTitle characters (runes: a Chinese title is
// held to as many characters as an English one), not blank. ok is false on an
// error (the value read is returned all the same).
func (r *docReader) annotationTitle(f field, path string) (v string, ok bool) {
	if v, ok = r.str(f.value, path); !ok {
		return v, false
	}
	if strings.TrimSpace(v) == "" || utf8.RuneCountInString(v) > MaxAnnotationTitle {
		r.errorf(resolve(f.value), path, "must be between 1 and "+strconv.Itoa(MaxAnnotationTitle)+" characters")
		return v, false
	}
	return v, true
}

// annotationText reads an annotation's text, or a translation of it: at
// most MaxAnnotationText characters.
func (r *docReader) annotationText(f field, path string) (v string, ok bool) {
	if v, ok = r.str(f.value, path); !ok {
		return v, false
	}
	if utf8.RuneCountInString(v) > MaxAnnotationText {
		r.errorf(resolve(f.value), path, "too long: the limit is "+strconv.Itoa(MaxAnnotationText)+" characters")
		return v, false
	}
	return v, true
}

// decodeAnnotationAt reads at: {step: N} or {record: TYPE, nth: K}.
func (r *docReader) decodeAnnotationAt(n *node, path string, at *AnnotationAt) {
	m, ok := r.mapping(n, path, annotationAtFields)
	if !ok {
		return
	}
	sf, hasStep := m["step"]
	rf, hasRecord := m["record"]
	if hasStep == hasRecord {
		r.errorf(resolve(n), path, "expected exactly one of step and record")
		return
	}
	if hasStep {
		if nf, ok := m["nth"]; ok {
			r.errorf(nf.key, join(path, "nth"), "nth is only used with record")
		}
		if v, ok := r.integer(sf.value, join(path, "step"), 1, MaxStepsLimit); ok {
			at.Step = int(v)
		}
		return
	}
	name, ok := r.str(rf.value, join(path, "record"))
	if !ok {
		return
	}
	if !contains(AnnotationRecordTypes, name) {
		msg := "unknown record type " + strconv.Quote(name) + ": expected one of " + strings.Join(AnnotationRecordTypes, ", ")
		if sg := suggest(name, AnnotationRecordTypes); sg != "" {
			msg = "unknown record type " + strconv.Quote(name) + ` (did you mean "` + sg + `"?)`
		}
		r.errorf(resolve(rf.value), join(path, "record"), msg)
		return
	}
	at.Record, at.Nth = name, 1
	if nf, ok := m["nth"]; ok {
		if v, ok := r.integer(nf.value, join(path, "nth"), 1, MaxStepsLimit); ok {
			at.Nth = int(v)
		}
	}
}
