package main

import "fmt"

// exitCode is the process exit status of a command.
type exitCode int

const (
	// exitOK: the command did what was asked.
	exitOK exitCode = 0
	// exitRuntime: the command was well-formed but failed while running.
	exitRuntime exitCode = 1
	// exitUsage: the command line itself was wrong.
	exitUsage exitCode = 2
)

// String names the code for messages and tests.
func (c exitCode) String() string {
	switch c {
	case exitOK:
		return "ok"
	case exitRuntime:
		return "runtime error"
	case exitUsage:
		return "usage error"
	}
	return fmt.Sprintf("exitCode(%d)", int(c))
}
