package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// runList implements `rolloutlab list`: one line per embedded scenario, in
// id order: the id to pass as library:ID, the scenario's name and the first
// sentence of its description.
func runList(e env, args []string) exitCode {
	fs := newFlagSet(e, "list", "list")
	describe(fs, "list", "Lists the embedded scenario library: ID (run it with `rolloutlab run library:ID`),\nNAME and the first sentence of its description.\n")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	w := tabwriter.NewWriter(e.stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tDESCRIPTION")
	result := exitOK
	for _, id := range scenarios.IDs() {
		data, _ := scenarios.Source(id)
		scen, err := scenario.Parse(libraryPrefix+id, data)
		if err != nil {
			fmt.Fprintf(e.stderr, "rolloutlab list: %v\n", err)
			result = exitRuntime
			continue
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", id, scen.Name, firstSentence(scen.Description))
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab list: %v\n", err)
		return exitRuntime
	}
	return result
}

// firstSentence returns the text up to and including the first ". " (or
// all of it), on one line.
//
//	"Scale up. Then down." → "Scale up."
//	"No full stop"         → "No full stop"
func firstSentence(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}
