package scenario

import (
	"errors"
	"strconv"
	"strings"
)

// ErrInvalid is the sentinel every parse error matches with errors.Is.
var ErrInvalid = errors.New("invalid scenario")

// Error is one problem found in a scenario file.
type Error struct {
	// File is the name given to Parse, e.g. "web.yaml"; may be empty.
	File string `json:"file,omitempty"`
	// Doc is the 1-based index of the YAML document; 0 when the problem
	// concerns the whole file (size, document count).
	Doc int `json:"doc,omitempty"`
	// Line and Column are 1-based positions in the file; 0 when unknown.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Field is the dotted path of the offending field inside its document,
	// e.g. "spec.timeline[2].at"; empty for document-level problems.
	Field string `json:"field,omitempty"`
	// Message says what is wrong and what was expected.
	Message string `json:"message"`
}

// Error renders `file: document 2, line 14: field: message`, leaving out the
// parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	var pos []string
	if e.Doc > 0 {
		pos = append(pos, "document "+strconv.Itoa(e.Doc))
	}
	if e.Line > 0 {
		pos = append(pos, "line "+strconv.Itoa(e.Line))
	}
	if len(pos) > 0 {
		b.WriteString(strings.Join(pos, ", "))
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Is makes every *Error match ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// ErrorList is several problems, in file order. Parse returns an ErrorList
// only when it holds two or more errors.
type ErrorList []*Error

// Error renders one error per line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Is makes every ErrorList match ErrInvalid.
func (l ErrorList) Is(target error) bool { return target == ErrInvalid }

// Errors returns the individual errors of err: the list itself for an
// ErrorList, a one-element list for a *Error, nil otherwise.
func Errors(err error) []*Error {
	var l ErrorList
	if errors.As(err, &l) {
		return l
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}
