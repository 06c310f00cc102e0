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
	// data is the file's text, at most scenario.MaxFileBytes bytes.
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
	size := int64(-1) // the real size, when it can be known without reading
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
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		r = f
	}
	// Read one byte past the limit: that is enough to know it is too big.
	data, err := io.ReadAll(io.LimitReader(r, scenario.MaxFileBytes+1))
	if err != nil {
		return source{}, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > scenario.MaxFileBytes {
		return source{}, tooLarge(name, size)
	}
	return source{name: name, data: data}, nil
}

// tooLarge is the error for a FILE over scenario.MaxFileBytes: with its real
// size when known (a regular file), else (a pipe) just "over the limit".
func tooLarge(name string, size int64) error {
	if size > scenario.MaxFileBytes {
		return fmt.Errorf("%s: file is %d bytes; the limit is 1 MiB (%d bytes)", name, size, scenario.MaxFileBytes)
	}
	return fmt.Errorf("%s: file is larger than the limit of 1 MiB (%d bytes)", name, scenario.MaxFileBytes)
}

// sourceErrorCode is the exit code for a readSource error.
func sourceErrorCode(err error) exitCode {
	if errors.Is(err, errUnknownScenario) {
		return exitUsage
	}
	return exitRuntime
}
