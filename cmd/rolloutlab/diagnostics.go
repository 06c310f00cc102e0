package main

import (
	"errors"
	"strconv"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/session"
)

// diagnostics renders the error of session.Load on file name as the UI
// shows it, one problem per line:
//
//	file:line: field: message
//
// The line is left out when unknown (problems with the whole file), and the
// field when the problem is with a whole document. Parse errors come one
// per problem found; the dry load stops at the first object the API server
// refuses, whose message names the field itself (e.g.
// `web.yaml:12: ReplicaSet.apps "web" is invalid: spec.selector: Required value`).
//
// Example: a Deployment's misspelt "replica:" on line 18 gives
// `web.yaml:18: spec.replica: unknown field (did you mean "replicas"?)`.
func diagnostics(name string, err error) []string {
	if errs := scenario.Errors(err); len(errs) > 0 {
		lines := make([]string, 0, len(errs))
		for _, e := range errs {
			lines = append(lines, diagnostic(name, e.Line, e.Field, e.Message))
		}
		return lines
	}
	var setup *session.SetupError
	if errors.As(err, &setup) {
		return []string{diagnostic(name, setup.Line(), "", setup.Message)}
	}
	return []string{diagnostic(name, 0, "", err.Error())}
}

// diagnostic renders one problem: "file:line: field: message" with the
// unknown parts (line 0, empty field) left out.
func diagnostic(name string, line int, field, message string) string {
	s := name
	if line > 0 {
		s += ":" + strconv.Itoa(line)
	}
	s += ": "
	if field != "" {
		s += field + ": "
	}
	return s + message
}

// noticeLines renders the notices of a loaded file, one per line:
//
//	file:line: notice: Kind/name: message
func noticeLines(name string, notices []scenario.Notice) []string {
	out := make([]string, 0, len(notices))
	for _, n := range notices {
		line := n.Line // the position goes in front
		n.Doc, n.Line = 0, 0
		out = append(out, diagnostic(name, line, "notice", scenario.NoticeText(n)))
	}
	return out
}

// plural renders n and a noun, with an "s" unless n is 1: "1 error",
// "2 errors".
func plural(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}
