package main

import (
	"errors"
	"flag"
	"fmt"
)

// newFlagSet returns a flag set for command name whose errors are returned,
// not printed-and-exited, and whose usage goes to e.stderr.
func newFlagSet(e env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: rolloutlab %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and maps the outcome to an exit code: ok=false means
// the command must stop and return code (0 for --help, 2 for a bad flag).
// Help is printed to stdout so that `rolloutlab serve --help | less` works.
func parseFlags(e env, fs *flag.FlagSet, args []string) (code exitCode, ok bool) {
	err := parseQuietly(fs, args)
	switch {
	case err == nil:
		if fs.NArg() > 0 {
			fmt.Fprintf(e.stderr, "rolloutlab %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
			fs.Usage()
			return exitUsage, false
		}
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(e.stdout)
		fs.Usage()
		return exitOK, false
	default:
		return exitUsage, false
	}
}

// describe replaces fs's usage with the synopsis, a description of the
// command (text, printed as given) and the flags.
func describe(fs *flag.FlagSet, synopsis, text string) {
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: rolloutlab %s\n\n%s", synopsis, text)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprint(fs.Output(), "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
}

// parseArgs is parseFlags for commands that take positional arguments:
// flags may come before, between or after them (`run FILE --seed 3` and
// `run --seed 3 FILE` both work), and everything after "--" is positional.
// A lone "-" is positional (it names stdin). The arguments are returned in
// order; their count is the caller's to check.
func parseArgs(e env, fs *flag.FlagSet, args []string) (positional []string, code exitCode, ok bool) {
	for {
		err := parseQuietly(fs, args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fs.SetOutput(e.stdout)
			fs.Usage()
			return nil, exitOK, false
		case err != nil:
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, exitOK, true
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), exitOK, true
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// usageError reports a bad command line for command name on stderr, with
// the command's usage, and returns exitUsage.
func usageError(e env, fs *flag.FlagSet, format string, args ...any) exitCode {
	fmt.Fprintf(e.stderr, "rolloutlab %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return exitUsage
}

// parseQuietly is fs.Parse without the usage the flag package prints on its
// own: for --help the caller prints it to stdout (once, not also to
// stderr); for a bad flag it is printed here to stderr, after the flag
// package's message.
func parseQuietly(fs *flag.FlagSet, args []string) error {
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fs.Usage()
	}
	return err
}
