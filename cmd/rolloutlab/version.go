package main

import (
	"fmt"

	"github.com/rolloutlab/rolloutlab/engine"
)

// runVersion prints one line: the engine version and the Kubernetes release
// whose controllers it reproduces.
func runVersion(e env, args []string) exitCode {
	fs := newFlagSet(e, "version", "version")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	fmt.Fprintf(e.stdout, "rolloutlab %s (Kubernetes %s controllers)\n", engine.Version, engine.UpstreamVersion)
	return exitOK
}
