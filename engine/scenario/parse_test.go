package scenario

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
)

// TestParseGolden runs testdata/errors/*.txt: each "parse" case parses its
// input as web.yaml and prints the errors, or a summary of what was parsed.
func TestParseGolden(t *testing.T) {
	datadriven.Walk(t, "testdata/errors", func(t *testing.T, path string) {
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "parse" {
				d.Fatalf(t, "unknown command %q", d.Cmd)
			}
			s, err := Parse("web.yaml", []byte(d.Input))
			if err != nil {
				checkErrorShape(t, err)
				return err.Error()
			}
			return summarize(s)
		})
	})
}

// checkErrorShape asserts the error contract: a *Error or an ErrorList of
// two or more, each with a message, all matching ErrInvalid.
func checkErrorShape(t testing.TB, err error) {
	t.Helper()
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("error %v does not match ErrInvalid", err)
	}
	switch e := err.(type) {
	case *Error:
		if e.Message == "" {
			t.Fatalf("error without a message: %#v", e)
		}
	case ErrorList:
		if len(e) < 2 {
			t.Fatalf("ErrorList of %d errors", len(e))
		}
		for _, x := range e {
			if x == nil || x.Message == "" {
				t.Fatalf("list holds an empty error: %#v", x)
			}
		}
	default:
		t.Fatalf("error of type %T: %v", err, err)
	}
}

// summarize renders a parsed scenario compactly for golden files.
func summarize(s *Scenario) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ok: name=%s seed=%d nodes=%s limits=%d/%d\n", s.Name, s.Seed, strings.Join(s.Cluster.Nodes, ","), s.Limits.MaxPods, s.Limits.MaxSteps)
	for _, o := range s.Objects {
		m, _ := meta.Accessor(o.Obj)
		fmt.Fprintf(&b, "object %s %s/%s (document %d, line %d)\n", o.Kind(), m.GetNamespace(), m.GetName(), o.Doc, o.Line)
	}
	for _, a := range s.Timeline {
		fmt.Fprintf(&b, "action line %d: %s", a.Line, a.Trigger.Type)
		switch a.Trigger.Type {
		case TriggerAt:
			fmt.Fprintf(&b, " %s", a.Trigger.At)
		case TriggerAfter:
			fmt.Fprintf(&b, " %s", a.Trigger.After)
		case TriggerWhen:
			c := a.Trigger.When
			fmt.Fprintf(&b, " %s", c.Type)
			if c.Target.Kind != 0 {
				fmt.Fprintf(&b, " %s", c.Target)
			}
			if c.Type == CondAvailable {
				fmt.Fprintf(&b, " atLeast=%d", c.AtLeast)
			}
			if c.Type == CondStep {
				fmt.Fprintf(&b, " %d", c.Step)
			}
		}
		fmt.Fprintf(&b, " -> %s ns=%s", a.Type, a.Namespace)
		if a.Target.Kind != 0 {
			fmt.Fprintf(&b, " target=%s", a.Target)
		}
		switch a.Type {
		case ActionScale:
			fmt.Fprintf(&b, " replicas=%d", a.Replicas)
		case ActionUndo:
			fmt.Fprintf(&b, " toRevision=%d", a.ToRevision)
		case ActionDelete:
			fmt.Fprintf(&b, " policy=%s", a.PropagationPolicy)
		case ActionFailNode, ActionRecoverNode:
			fmt.Fprintf(&b, " node=%s", a.Node)
		case ActionApply:
			for _, o := range a.Manifest {
				m, _ := meta.Accessor(o.Obj)
				fmt.Fprintf(&b, " [%s %s/%s line %d]", o.Kind(), m.GetNamespace(), m.GetName(), o.Line)
			}
		}
		b.WriteByte('\n')
	}
	for _, n := range s.Notices {
		fmt.Fprintf(&b, "notice %s: %s\n", n.Code, NoticeText(n))
	}
	return b.String()
}
