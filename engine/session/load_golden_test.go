package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// TestLoadGolden runs ../scenario/testdata/load/*.txt: each "load" case
// loads its input as web.yaml (parse, then the dry set-up through the API
// server) and prints every problem with its line and field, then the count;
// or, for a file that loads, its objects and notices. "load spec-only" loads
// with LoadOptions.SpecOnly.
func TestLoadGolden(t *testing.T) {
	datadriven.Walk(t, "../scenario/testdata/load", func(t *testing.T, path string) {
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "load" {
				d.Fatalf(t, "unknown command %q", d.Cmd)
			}
			s, err := LoadWith("web.yaml", []byte(d.Input), LoadOptions{SpecOnly: d.HasArg("spec-only")})
			var b strings.Builder
			if err != nil {
				errs := scenario.Errors(err)
				if len(errs) == 0 {
					return "unexpected error: " + err.Error()
				}
				for _, e := range errs {
					fmt.Fprintf(&b, "line %d: %s: %s\n", e.Line, e.Field, e.Message)
				}
				fmt.Fprintf(&b, "%d problem(s)\n", len(errs))
				return b.String()
			}
			fmt.Fprintf(&b, "ok: scenario %s\n", s.Scenario().Name)
			for _, o := range s.Scenario().Objects {
				fmt.Fprintf(&b, "object %s %s/%s line %d live=%v\n", o.Kind(), o.Obj.(interface{ GetNamespace() string }).GetNamespace(), o.Obj.(interface{ GetName() string }).GetName(), o.Line, o.Live)
			}
			for _, n := range s.Scenario().Notices {
				fmt.Fprintf(&b, "notice %s: %s\n", n.Code, scenario.NoticeText(n))
			}
			return b.String()
		})
	})
}
