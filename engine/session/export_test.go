package session

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// finalState is every Deployment, ReplicaSet and pod at the end, as JSON.
func finalState(t *testing.T, s *Session) string {
	t.Helper()
	srv := s.Sim().Server()
	b, err := json.Marshal([]any{srv.ListDeployments("", nil), srv.ListReplicaSets("", nil), srv.ListPods("", nil)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// replay loads an exported file and plays it out.
func replay(t *testing.T, src []byte) *Session {
	t.Helper()
	s, err := Load("exported.yaml", src, nil)
	if err != nil {
		t.Fatalf("exported file does not load: %v\n%s", err, src)
	}
	s.RunToEnd()
	return s
}

var web = scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}

// Actions made after the file's timeline ran are appended to it; playing the
// exported file ends in the same cluster, object for object.
func TestExportAfterTimeline(t *testing.T) {
	s := loadLibrary(t, "max-surge-zero")
	s.RunToEnd()
	at := s.Step()
	mustApply(t, s, scenario.Action{Type: scenario.ActionScale, Target: web, Replicas: 6})
	s.Advance(BySettle, 1)
	mustApply(t, s, scenario.Action{Type: scenario.ActionSetImage, Target: web, Container: "web", Image: "nginx:1.27"})
	s.RunToEnd()
	out := s.ExportScenario()
	src, _ := scenarios.Source("max-surge-zero")
	want := `      image: nginx:1.26
    - {"action":"scale","replicas":6,"target":"deployment/web","when":{"step":` + itoa(at) + `}}
    - {"action":"setImage",`
	if !strings.HasPrefix(string(out), string(src[:strings.Index(string(src), "      image: nginx:1.26")])) || !strings.Contains(string(out), want) {
		t.Fatalf("exported:\n%s", out)
	}
	if got, want := finalState(t, replay(t, out)), finalState(t, s); got != want {
		t.Errorf("the exported run ends elsewhere:\n%s\nwant\n%s", got, want)
	}
}

// A file without a Scenario document gets one; an action made before a
// timeline entry ran goes before that entry.
func TestExportPlacement(t *testing.T) {
	s, err := Load("tiny.yaml", []byte(tinyDeployment), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Advance(ByEvent, 4)
	mustApply(t, s, scenario.Action{Type: scenario.ActionScale, Target: web, Replicas: 3})
	s.RunToEnd()
	out := s.ExportScenario()
	if !strings.HasPrefix(string(out), "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: \"web\"}\nspec:\n  timeline:\n  - {\"action\":\"scale\",\"replicas\":3,\"target\":\"deployment/web\",\"when\":{\"step\":4}}\n---\n"+tinyDeployment) {
		t.Fatalf("exported:\n%s", out)
	}
	if got, want := finalState(t, replay(t, out)), finalState(t, s); got != want {
		t.Errorf("the exported run ends elsewhere")
	}

	s = loadLibrary(t, "max-surge-zero")
	s.Advance(ByEvent, 3)
	mustApply(t, s, scenario.Action{Type: scenario.ActionScale, Target: web, Replicas: 5})
	s.RunToEnd()
	out = s.ExportScenario()
	if !strings.Contains(string(out), "  timeline:\n    - {\"action\":\"scale\",\"replicas\":5,\"target\":\"deployment/web\",\"when\":{\"step\":3}}\n    - when: {rolloutComplete: deployment/web}") {
		t.Fatalf("exported:\n%s", out)
	}
	if got, want := finalState(t, replay(t, out)), finalState(t, s); got != want {
		t.Errorf("the exported run ends elsewhere")
	}
	// The same before the run was played further: the entry that has not
	// run yet comes after the user's action.
	s = loadLibrary(t, "max-surge-zero")
	s.Advance(ByEvent, 3)
	mustApply(t, s, scenario.Action{Type: scenario.ActionScale, Target: web, Replicas: 5})
	if again := s.ExportScenario(); string(again) != string(out) {
		t.Errorf("exported before the end:\n%s\nwant\n%s", again, out)
	}
}

func mustApply(t *testing.T, s *Session, a scenario.Action) {
	t.Helper()
	if _, err := s.Apply(a); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
