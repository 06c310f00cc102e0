package main

import (
	"fmt"

	"github.com/rolloutlab/rolloutlab/engine/session"
)

const checkSynopsis = "check FILE... [--spec-only]"

const checkHelpText = `Validates scenario files as the UI does when one is opened: the file is
parsed (syntax, kinds, unknown fields, value types, the Scenario schema),
then loaded dry: every object is sent to the simulated API server at time
zero, which validates it as Kubernetes does. Loading stops at the first
object refused.

FILE is a path, library:ID for an embedded scenario, or - for stdin.

Problems go to stderr, one per line, as the UI shows them:
  file:line: field: message
then a count. A valid file prints "FILE: ok" and a summary to stdout, then
its notices, one per line (kinds that are not simulated, objects replaced
by a later one of the same name, fields of pasted cluster output dropped
or reinterpreted):
  file:line: notice: Kind/name: message

Pasted cluster output (kubectl get deploy,rs,pods -o yaml) is loaded as
the initial state of the cluster; --spec-only starts from its specs.

Exit codes: 0 every file is valid; 1 a file is invalid or unreadable;
2 usage error.
`

// runCheck implements `rolloutlab check`.
func runCheck(e env, args []string) exitCode {
	fs := newFlagSet(e, "check", checkSynopsis)
	describe(fs, checkSynopsis, checkHelpText)
	specOnly := fs.Bool("spec-only", false, "start pasted cluster output from its specs, not its state")
	files, code, ok := parseArgs(e, fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		return usageError(e, fs, "want at least one FILE")
	}
	result := exitOK
	for _, arg := range files {
		src, err := readSource(e, arg)
		if err != nil {
			fmt.Fprintf(e.stderr, "rolloutlab check: %v\n", err)
			result = max(result, sourceErrorCode(err))
			continue
		}
		s, err := session.LoadWith(src.name, src.data, session.LoadOptions{SpecOnly: *specOnly})
		if err != nil {
			lines := diagnostics(src.name, err)
			for _, l := range lines {
				fmt.Fprintln(e.stderr, l)
			}
			fmt.Fprintf(e.stderr, "%s: %s\n", src.name, plural(len(lines), "error"))
			result = max(result, exitRuntime)
			continue
		}
		scen := s.Scenario()
		filled := 0
		for _, o := range scen.Objects {
			if o.Filled {
				filled++
			}
		}
		objects := plural(len(scen.Objects)-filled, "object")
		if filled > 0 {
			objects += " (and " + plural(filled, "object") + " filled in from a status)"
		}
		fmt.Fprintf(e.stdout, "%s: ok (scenario %s, seed %d, %s, %s)\n", src.name, scen.Name, scen.Seed,
			objects, plural(len(scen.Timeline), "timeline action"))
		for _, l := range noticeLines(src.name, scen.Notices) {
			fmt.Fprintln(e.stdout, l)
		}
	}
	return result
}
