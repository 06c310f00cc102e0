package main

import "fmt"

// runHelp prints the command list, or one command's flags.
func runHelp(e env, args []string) exitCode {
	switch len(args) {
	case 0:
		usage(e.stdout)
		return exitOK
	case 1:
		for _, c := range commands() {
			if c.name == args[0] && c.name != "help" {
				return c.run(e, []string{"--help"})
			}
		}
		if args[0] == "help" {
			fmt.Fprintln(e.stdout, "Usage: rolloutlab help [command]")
			return exitOK
		}
		fmt.Fprintf(e.stderr, "rolloutlab help: unknown command %q\n", args[0])
		return exitUsage
	default:
		fmt.Fprintln(e.stderr, "Usage: rolloutlab help [command]")
		return exitUsage
	}
}
