package main

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// docs/trace-schema.md documents every payload type and kind the library
// scenarios produce, and the schema version the CLI prints.
func TestTraceSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/trace-schema.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	if !strings.Contains(text, "# JSON trace schema: `"+traceSchema+"`") {
		t.Errorf("docs/trace-schema.md does not document %s", traceSchema)
	}
	types := map[string]bool{}
	kinds := map[string]bool{}
	for _, id := range scenarios.IDs() {
		src, _ := scenarios.Source(id)
		s, err := session.Load(id, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.RunToEnd()
		for _, r := range s.Sim().Recorder().Records() {
			types[trace.TypeName(r.Data)] = true
			kinds[r.Kind().String()] = true
		}
	}
	var missing []string
	for name := range types {
		if !strings.Contains(text, "- **`"+name+"`**") {
			missing = append(missing, "type "+name)
		}
	}
	for k := range kinds {
		if !strings.Contains(text, "| `"+k+"` |") {
			missing = append(missing, "kind "+k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/trace-schema.md lacks: %s", strings.Join(missing, ", "))
	}
}
