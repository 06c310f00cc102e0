package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// env is what a command may touch: its standard streams and a context that
// is cancelled on SIGINT/SIGTERM. Tests pass buffers and their own context.
type env struct {
	ctx context.Context
	// stdin is read only for a scenario file named "-"; nil reads as empty.
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand.
type command struct {
	// name is the word typed after "rolloutlab".
	name string
	// summary is one line for the command list.
	summary string
	// run executes the command with the arguments after its name.
	run func(e env, args []string) exitCode
}

// commands lists every subcommand in the order `help` shows them. Each
// lives in its own file (run.go, check.go, list.go, serve.go, version.go).
func commands() []command {
	return []command{
		{"run", "play a scenario headless and print its timeline, trace or final state", runRun},
		{"compare", "play two futures (two files, or one with --set) and print how they differ", runCompare},
		{"check", "validate scenario files as the UI would (parse and dry load)", runCheck},
		{"list", "list the embedded scenario library", runList},
		{"serve", "serve the built web app on a local address", runServe},
		{"version", "print the engine and upstream Kubernetes versions", runVersion},
		{"help", "print this help, or `help <command>` for one command", runHelp},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := dispatch(env{ctx: ctx, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(int(code))
}

// dispatch runs the command named by args[0].
func dispatch(e env, args []string) exitCode {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(e.stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "rolloutlab: unknown command %q\n\n", args[0])
	usage(e.stderr)
	return exitUsage
}

// usage prints the command list.
func usage(w io.Writer) {
	fmt.Fprint(w, "Rollout Lab: step through the Kubernetes Deployment and ReplicaSet controllers.\n\n")
	fmt.Fprint(w, "Usage:\n  rolloutlab <command> [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun `rolloutlab <command> --help` for a command's flags.\n")
	fmt.Fprint(w, "Exit codes: 0 ok, 1 scenario or runtime error, 2 usage error.\n")
}
