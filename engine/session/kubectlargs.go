package session

import (
	"fmt"
	"strconv"
	"strings"
)

// kubectlArgs is a kubectl command line split into words and flags.
type kubectlArgs struct {
	words []string
	// namespace is -n's value, "default" without it.
	namespace     string
	allNamespaces bool
	output        string
	showLabels    bool
	noHeaders     bool
	labelColumns  []string
	revision      int64
	// seen lists the flags given, by long name, for per-command checks.
	seen map[string]bool
}

// shorthands maps kubectl's one-letter flags to their long names.
var shorthands = map[string]string{"n": "namespace", "A": "all-namespaces", "o": "output", "L": "label-columns"}

// parseKubectl splits a command line the way kubectl's flag parser reads
// it: flags anywhere, "--flag=value", "--flag value", "-n value",
// "-nvalue".
func parseKubectl(command string) (*kubectlArgs, error) {
	f := strings.Fields(command)
	if len(f) > 0 && f[0] == "kubectl" {
		f = f[1:]
	}
	a := &kubectlArgs{namespace: "default", seen: map[string]bool{}}
	for i := 0; i < len(f); i++ {
		w := f[i]
		if !strings.HasPrefix(w, "-") || w == "-" {
			a.words = append(a.words, w)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		short := !strings.HasPrefix(w, "--")
		if short && len(name) > 1 && !hasValue {
			// -nshop, -owide, -Lapp
			name, value, hasValue = name[:1], name[1:], true
		}
		if short {
			long, ok := shorthands[name]
			if !ok {
				return nil, fmt.Errorf("error: unknown shorthand flag: '%s' in %s", name, clipEcho(w))
			}
			name = long
		}
		takesValue := name == "namespace" || name == "output" || name == "label-columns" || name == "revision"
		if takesValue && !hasValue {
			if i+1 >= len(f) {
				return nil, fmt.Errorf("error: flag needs an argument: %s", clipEcho(w))
			}
			i++
			value = f[i]
		}
		a.seen[name] = true
		switch name {
		case "namespace":
			a.namespace = value
		case "all-namespaces":
			a.allNamespaces = true
		case "output":
			a.output = value
		case "show-labels":
			a.showLabels = true
		case "no-headers":
			a.noHeaders = true
		case "label-columns":
			a.labelColumns = append(a.labelColumns, strings.Split(value, ",")...)
		case "revision":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("error: invalid argument %q for \"--revision\" flag: must be an integer", clipEcho(value))
			}
			a.revision = n
		default:
			return nil, fmt.Errorf("error: unknown flag: --%s", clipEcho(name))
		}
	}
	return a, nil
}

// only reports the first flag given that is not in allowed, as kubectl's
// error for a flag the command does not have.
func (a *kubectlArgs) only(allowed ...string) error {
	for _, name := range []string{"namespace", "all-namespaces", "output", "show-labels", "no-headers", "label-columns", "revision"} {
		if a.seen[name] && !hasString(allowed, name) {
			return fmt.Errorf("error: unknown flag: --%s", name)
		}
	}
	return nil
}

func hasString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
