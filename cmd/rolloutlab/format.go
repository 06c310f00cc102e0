package main

import "fmt"

// outputFormat is what `run --format` prints.
type outputFormat uint8

const (
	// formatText is a readable timeline: each step and its trace records,
	// with kubectl tables at chosen points (text.go).
	formatText outputFormat = iota + 1
	// formatJSON is the trace in the versioned schema of
	// docs/trace-schema.md (json.go).
	formatJSON
	// formatState is every object at the end as one Kubernetes v1 List,
	// as `kubectl get -o json` prints it (state.go).
	formatState
)

// formatNames maps --format values to formats, in the order help lists them.
var formatNames = []struct {
	name   string
	format outputFormat
}{{"text", formatText}, {"json", formatJSON}, {"state", formatState}}

// String is the --format spelling.
func (f outputFormat) String() string {
	for _, n := range formatNames {
		if n.format == f {
			return n.name
		}
	}
	return fmt.Sprintf("outputFormat(%d)", uint8(f))
}

// parseFormat reads --format; ok is false for an unknown name.
func parseFormat(s string) (outputFormat, bool) {
	for _, n := range formatNames {
		if n.name == s {
			return n.format, true
		}
	}
	return 0, false
}

// tablesMode is where the text timeline prints kubectl tables.
type tablesMode uint8

const (
	// tablesActions prints them after set-up, after every step in which a
	// timeline action ran, and at the end.
	tablesActions tablesMode = iota + 1
	// tablesEnd prints them at the end only.
	tablesEnd
	// tablesNone prints none.
	tablesNone
)

// tablesNames maps --tables values to modes.
var tablesNames = []struct {
	name string
	mode tablesMode
}{{"actions", tablesActions}, {"end", tablesEnd}, {"none", tablesNone}}

// String is the --tables spelling.
func (m tablesMode) String() string {
	for _, n := range tablesNames {
		if n.mode == m {
			return n.name
		}
	}
	return fmt.Sprintf("tablesMode(%d)", uint8(m))
}

// parseTables reads --tables; ok is false for an unknown name.
func parseTables(s string) (tablesMode, bool) {
	for _, n := range tablesNames {
		if n.name == s {
			return n.mode, true
		}
	}
	return 0, false
}
