// Command rolloutlab is Rollout Lab's command-line front end.
//
//	rolloutlab <command> [flags]
//
// Commands:
//
//	run      play a scenario headless: a text timeline (each step, its trace
//	         records and the controllers' math, the scenario's notes where
//	         they fall, kubectl tables), the JSON
//	         trace (docs/trace-schema.md) or the final state as a v1 List
//	check    validate scenario files (parse + dry load) and print problems
//	         as `file:line: field: message`
//	list     list the embedded scenario library (run one with library:ID)
//	serve    serve the built web app (web/dist) on a local address
//	version  print the engine and upstream Kubernetes versions
//	help     print usage, or a command's usage with `help <command>`
//
// A scenario FILE is a path, library:ID for an embedded scenario, or - for
// stdin. Every command accepts --help. Exit codes are the same for all
// commands:
//
//	0  success
//	1  scenario or runtime error (invalid or unreadable scenario, a run
//	   stopped by a limit, a server that cannot listen)
//	2  usage error (unknown command, bad flag or argument, unknown
//	   library:ID)
//
// Results go to stdout, problems to stderr. The CLI is a thin shell: it
// parses flags, calls into engine/ (engine/session drives the simulation)
// and prints; the same scenario and seed print the same bytes.
package main
