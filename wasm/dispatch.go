package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// Sentinel errors reported by the dispatcher itself.
var (
	// errUnknownMethod: the method name has no handler.
	errUnknownMethod = errors.New("unknown method")
	// errBadArgs: the arguments are not valid JSON.
	errBadArgs = errors.New("arguments are not valid JSON")
	// errBadCall: JavaScript called with something other than
	// (method string, argsJSON string).
	errBadCall = errors.New("call expects (method: string, argsJSON?: string)")
)

// api maps a method name to its handler. It is built once by methods() and
// never changed afterwards, so concurrent reads are safe.
type api map[string]handler

// result is the envelope every call returns, serialised as JSON.
type result struct {
	// OK is true exactly when Error is nil.
	OK bool `json:"ok"`
	// Value is the handler's result; absent when OK is false.
	Value any `json:"value,omitempty"`
	// Error describes the failure; absent when OK is true.
	Error *callError `json:"error,omitempty"`
}

// callError is the wire form of a failed call.
type callError struct {
	// Message is the error text, for people.
	Message string `json:"message"`
	// Line is the 1-based input line the error refers to, 0 when none.
	Line int `json:"line"`
	// Field is the input field path the error refers to, "" when none.
	Field string `json:"field"`
	// Panic is true when the handler panicked rather than returned an error.
	Panic bool `json:"panic"`
	// Errors lists every problem of a scenario file, in file order, when
	// the error is a scenario error; Line and Field repeat the first.
	Errors []errorDetail `json:"errors,omitempty"`
}

// errorDetail is one problem of a scenario file.
type errorDetail struct {
	Doc     int    `json:"doc"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// call runs method with argsJSON and returns the result envelope as JSON.
// It never panics: a panicking handler becomes {"ok":false,...,"panic":true}.
func (a api) call(method, argsJSON string) (out string) {
	defer func() {
		if p := recover(); p != nil {
			// The stack goes to the console for developers; the page gets
			// a one-line message. The built-in print writes synchronously:
			// os.Stderr would wait for a JavaScript callback, which never
			// arrives while JavaScript is blocked in this very call.
			print(fmt.Sprintf("rolloutlab: panic in %q: %v\n%s", method, p, debug.Stack()))
			out = encode(result{Error: &callError{
				Message: fmt.Sprintf("internal error in %q: %v", method, p),
				Panic:   true,
			}})
		}
	}()
	value, err := a.invoke(method, argsJSON)
	if err != nil {
		return failure(err)
	}
	return encode(result{OK: true, Value: value})
}

// invoke finds and runs the handler; it may panic if the handler does.
func (a api) invoke(method, argsJSON string) (any, error) {
	h, ok := a[method]
	if !ok {
		return nil, fmt.Errorf("%w %q", errUnknownMethod, method)
	}
	args := json.RawMessage(argsJSON)
	if argsJSON == "" {
		args = json.RawMessage("null")
	}
	if !json.Valid(args) {
		return nil, fmt.Errorf("%s: %w", method, errBadArgs)
	}
	return h(args)
}

// failure encodes err as a failed call, for errors raised before dispatch.
func failure(err error) string {
	return encode(result{Error: describe(err)})
}

// describe turns err into its wire form, picking up a line number and a field
// path from the first error in the chain that offers them.
func describe(err error) *callError {
	ce := &callError{Message: err.Error()}
	var withLine interface{ Line() int }
	if errors.As(err, &withLine) {
		ce.Line = withLine.Line()
	}
	var withField interface{ Field() string }
	if errors.As(err, &withField) {
		ce.Field = withField.Field()
	}
	var panicked interface{ Panicked() bool }
	if errors.As(err, &panicked) {
		ce.Panic = panicked.Panicked()
	}
	for _, e := range scenario.Errors(err) {
		ce.Errors = append(ce.Errors, errorDetail{Doc: e.Doc, Line: e.Line, Column: e.Column, Field: e.Field, Message: e.Message})
	}
	if len(ce.Errors) > 0 && ce.Line == 0 {
		ce.Line, ce.Field = ce.Errors[0].Line, ce.Errors[0].Field
	}
	return ce
}

// encode marshals r. If the handler's value cannot be marshalled, the call is
// reported as failed instead, so the page always receives valid JSON.
func encode(r result) string {
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(result{Error: &callError{Message: "cannot encode result: " + err.Error()}})
	}
	return string(b)
}
