package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// libraryPrefix marks a FILE argument naming an embedded scenario.
const libraryPrefix = "library:"

// stdinName is the FILE argument that reads the scenario from stdin, and
// stdinLabel the name its messages carry.
const (
	stdinName  = "-"
	stdinLabel = "<stdin>"
)

// errUnknownScenario: a library:ID argument names no embedded scenario. It
// is a usage error: the valid ids are fixed and listed by `list`.
var errUnknownScenario = errors.New("unknown library scenario")

// source is a scenario file named on the command line.
type source struct {
	// name labels the file in messages: the path as typed, "library:ID" or
	// "<stdin>".
	name string
	// data is the file's text, at most scenario.MaxFileBytes+1 bytes.
	data []byte
}

// readSource reads the scenario FILE argument: a path, "library:ID" (an
// embedded scenario) or "-" (stdin).
func readSource(e env, arg string) (source, error) {
	if id, ok := strings.CutPrefix(arg, libraryPrefix); ok {
		data, found := scenarios.Source(id)
		if !found {
			return source{}, fmt.Errorf("%w %q; `rolloutlab list` shows them: %s", errUnknownScenario, id, strings.Join(scenarios.IDs(), ", "))
		}
		return source{name: arg, data: data}, nil
	}
	var r io.Reader
	name := arg
	if arg == stdinName {
		name = stdinLabel
		r = e.stdin
		if r == nil {
			r = strings.NewReader("")
		}
	} else {
		f, err := os.Open(arg)
		if err != nil {
			return source{}, err
		}
		defer f.Close()
		r = f
	}
	// Read one byte past the limit so that the parser reports the size.
	data, err := io.ReadAll(io.LimitReader(r, scenario.MaxFileBytes+1))
	if err != nil {
		return source{}, fmt.Errorf("reading %s: %w", name, err)
	}
	return source{name: name, data: data}, nil
}

// sourceErrorCode is the exit code for a readSource error.
func sourceErrorCode(err error) exitCode {
	if errors.Is(err, errUnknownScenario) {
		return exitUsage
	}
	return exitRuntime
}
