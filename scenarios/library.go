// Package scenarios is the curated library of scenario files shipped with
// Rollout Lab: each *.yaml here is a scenario with a description of what to
// watch. The files are embedded so the CLI and the browser carry them.
package scenarios

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Default is the scenario the app opens with.
const Default = "rolling-update-10-3-2"

// IDs returns the scenario ids (file names without .yaml), sorted.
func IDs() []string {
	entries, _ := files.ReadDir(".")
	var ids []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			ids = append(ids, name)
		}
	}
	sort.Strings(ids)
	return ids
}

// Source returns the text of scenario id.
func Source(id string) ([]byte, bool) {
	b, err := files.ReadFile(id + ".yaml")
	return b, err == nil
}
