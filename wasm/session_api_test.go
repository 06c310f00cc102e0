package main

import (
	"encoding/json"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// callOK calls method and decodes the value into out, failing on an error.
func callOK(t *testing.T, a api, method string, args any, out any) {
	t.Helper()
	b, _ := json.Marshal(args)
	var env struct {
		OK    bool            `json:"ok"`
		Value json.RawMessage `json:"value"`
		Error *callError      `json:"error"`
	}
	if err := json.Unmarshal([]byte(a.call(method, string(b))), &env); err != nil {
		t.Fatal(err)
	}
	if !env.OK {
		t.Fatalf("%s: %+v", method, env.Error)
	}
	if out != nil {
		if err := json.Unmarshal(env.Value, out); err != nil {
			t.Fatal(err)
		}
	}
}

func callErr(t *testing.T, a api, method string, args any) *callError {
	t.Helper()
	b, _ := json.Marshal(args)
	var env struct {
		OK    bool       `json:"ok"`
		Error *callError `json:"error"`
	}
	if err := json.Unmarshal([]byte(a.call(method, string(b))), &env); err != nil {
		t.Fatal(err)
	}
	if env.OK {
		t.Fatalf("%s succeeded, want an error", method)
	}
	return env.Error
}

type snap struct {
	View struct {
		Step        int `json:"step"`
		MaxStep     int `json:"maxStep"`
		ReplicaSets []struct {
			Name    string `json:"name"`
			Desired int32  `json:"desired"`
		} `json:"replicaSets"`
		Deployments []struct {
			Replicas int32 `json:"replicas"`
		} `json:"deployments"`
		ActionsHere []string `json:"actionsHere"`
	} `json:"view"`
	Steps   []json.RawMessage `json:"steps"`
	Message string            `json:"message"`
}

func TestSessionMethods(t *testing.T) {
	a := methods()
	if e := callErr(t, a, "advance", map[string]any{"by": "event"}); !strings.Contains(e.Message, "no scenario loaded") {
		t.Fatalf("advance before load: %+v", e)
	}
	var lib []libraryEntry
	callOK(t, a, "library", nil, &lib)
	if len(lib) != len(scenarios.IDs()) || lib[0].Description == "" {
		t.Fatalf("library = %d entries", len(lib))
	}
	src, _ := scenarios.Source(scenarios.Default)
	var s snap
	callOK(t, a, "load", map[string]any{"source": string(src), "name": "r.yaml"}, &s)
	if s.View.Step != 0 || len(s.View.Deployments) != 1 {
		t.Fatalf("after load: %+v", s.View)
	}
	callOK(t, a, "advance", map[string]any{"by": "sync", "count": 3}, &s)
	if s.View.Step == 0 || len(s.Steps) != s.View.Step {
		t.Fatalf("advance: step %d, %d steps returned", s.View.Step, len(s.Steps))
	}
	// records: the first decision, and with last the last one; total counts both alike.
	type recs struct {
		Records []struct {
			Seq  uint64
			Type string
		}
		Total int
	}
	var first, last recs
	callOK(t, a, "records", map[string]any{"kinds": []string{"decision"}, "limit": 1}, &first)
	callOK(t, a, "records", map[string]any{"kinds": []string{"decision"}, "limit": 1, "last": true}, &last)
	if len(first.Records) != 1 || len(last.Records) != 1 || first.Total < 2 || last.Total != first.Total || last.Records[0].Seq <= first.Records[0].Seq {
		t.Fatalf("records: first %+v, last %+v", first, last)
	}
	reached := s.View.Step
	callOK(t, a, "seek", map[string]any{"step": 1}, &s)
	if s.View.Step != 1 || s.View.MaxStep != reached {
		t.Fatalf("seek back: step %d max %d", s.View.Step, s.View.MaxStep)
	}
	// Computing ahead knows more steps without moving.
	var ahead struct {
		MaxStep int
		Ended   bool
	}
	callOK(t, a, "ahead", map[string]any{"steps": 100000}, &ahead)
	if !ahead.Ended || ahead.MaxStep <= reached {
		t.Fatalf("ahead: %+v (had %d steps)", ahead, reached)
	}
	callOK(t, a, "view", nil, &s)
	if s.View.Step != 1 || s.View.MaxStep != ahead.MaxStep {
		t.Fatalf("after ahead: step %d max %d", s.View.Step, s.View.MaxStep)
	}
	var cps struct {
		Count, Spaced  int
		Steps, Records []int
	}
	callOK(t, a, "checkpoints", nil, &cps)
	if cps.Spaced < 1 || len(cps.Records) != cps.Count || len(cps.Steps) != cps.Count || cps.Count < cps.Spaced || cps.Steps[0] != 0 {
		t.Fatalf("checkpoints: %+v", cps)
	}
	// Refining the checkpoints (idle work) leaves the session where it is.
	var refined struct{ Refined *bool }
	callOK(t, a, "refine", nil, &refined)
	var at snap
	callOK(t, a, "view", nil, &at)
	if refined.Refined == nil || at.View.Step != 1 {
		t.Fatalf("refine: %+v, then at step %d", refined, at.View.Step)
	}
	callOK(t, a, "act", map[string]any{"action": map[string]any{"type": "scale", "target": "deployment/web", "replicas": 4}}, &s)
	if s.Message != "deployment.apps/web scaled" || s.View.Deployments[0].Replicas != 4 {
		t.Fatalf("act: %q %+v", s.Message, s.View.Deployments)
	}
	if e := callErr(t, a, "act", map[string]any{"action": map[string]any{"type": "scale", "target": "deployment/web", "replicas": -2}}); !strings.Contains(e.Message, "replicas") {
		t.Fatalf("bad act: %+v", e)
	}
	var out struct{ Output string }
	callOK(t, a, "kubectl", map[string]any{"command": "get deploy"}, &out)
	if !strings.HasPrefix(out.Output, "NAME") || !strings.Contains(out.Output, "web") {
		t.Fatalf("kubectl get deploy:\n%s", out.Output)
	}
	// A broken file is reported with its line and the session stays.
	e := callErr(t, a, "load", map[string]any{"source": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  replica: 3\n"})
	if e.Line != 6 || len(e.Errors) == 0 || !strings.Contains(e.Message, "replica") {
		t.Fatalf("bad load: %+v", e)
	}
	callOK(t, a, "view", nil, &s)
	if s.View.Step != 1 || s.View.Deployments[0].Replicas != 4 {
		t.Fatalf("session lost after a failed load: %+v", s.View)
	}
}

func TestPanicRestoresSession(t *testing.T) {
	src, _ := scenarios.Source(scenarios.Default)
	sess, err := session.Load("r.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &bridge{sess: sess}
	if _, err := b.guarded(func(s *session.Session) (any, error) { s.Advance(session.ByEvent, 5); return nil, nil }); err != nil {
		t.Fatal(err)
	}
	a := api{"boom": func(json.RawMessage) (any, error) {
		return b.guarded(func(s *session.Session) (any, error) {
			s.Advance(session.ByEvent, 3)
			panic("injected")
		})
	}}
	var env struct {
		OK    bool
		Error *callError
	}
	_ = json.Unmarshal([]byte(a.call("boom", "")), &env)
	if env.OK || !env.Error.Panic || !strings.Contains(env.Error.Message, "injected") {
		t.Fatalf("panic not reported: %+v", env.Error)
	}
	if got := b.sess.Step(); got != 5 {
		t.Fatalf("after the panic the session is at step %d, want the last good step 5", got)
	}
}

// A user action that panics half-way through act is undone: the bridge
// reports an internal error and the session is at the step it was made,
// without the half-applied change (replicas back to 10, not 17).
func TestPanickingActionIsUndone(t *testing.T) {
	const src = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 10
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.27}]
`
	sess, err := session.Load("w.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &bridge{sess: sess}
	a := api{"badAct": func(json.RawMessage) (any, error) {
		return b.guarded(func(s *session.Session) (any, error) {
			s.Advance(session.ByEvent, 3)
			cur, _ := s.Sim().Server().GetDeployment("default", "web")
			d := cur.DeepCopy()
			d.ResourceVersion = ""
			n := int32(17)
			d.Spec.Replicas = &n
			_, err := s.Apply(scenario.Action{Type: scenario.ActionApply, Namespace: "default",
				Manifest: []scenario.Object{{Obj: d}, {Obj: (*appsv1.Deployment)(nil)}}})
			return nil, err
		})
	}}
	var env struct {
		OK    bool
		Error *callError
	}
	_ = json.Unmarshal([]byte(a.call("badAct", "")), &env)
	if env.OK || env.Error == nil || !env.Error.Panic || !strings.Contains(env.Error.Message, "the action was undone (back at step 3 without it)") {
		t.Fatalf("not reported as an undone internal error: %+v", env.Error)
	}
	d, _ := b.sess.Sim().Server().GetDeployment("default", "web")
	if *d.Spec.Replicas != 10 || b.sess.Step() != 3 {
		t.Fatalf("replicas %d at step %d, want 10 at step 3", *d.Spec.Replicas, b.sess.Step())
	}
}

// The browser caps the limits a file may raise more tightly than the
// command line: a file asking for 100,000 replicas, which would freeze or
// crash the page, is refused at once with the limit, its value and how to
// change it; a file the command line runs but the browser cannot hold is
// refused too. The session already loaded stays.
func TestLoadRefusesLimitsAboveTheBrowsersCeiling(t *testing.T) {
	a := methods()
	src, _ := scenarios.Source(scenarios.Default)
	callOK(t, a, "load", map[string]any{"source": string(src)}, nil)
	absurd := `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: absurd}
spec:
  limits: {maxPods: 100000, maxSteps: 10000000}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 100000
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.25}]
`
	e := callErr(t, a, "load", map[string]any{"source": absurd, "name": "absurd.yaml"})
	want := "spec.limits.maxPods: 100000 is more than the browser allows: at most 20000 pods at once (lower spec.limits.maxPods in the Scenario document)"
	if e.Line != 5 || e.Field != "spec.limits.maxPods" || !strings.Contains(e.Message, want) || len(e.Errors) != 3 {
		t.Fatalf("absurd file: %+v", e)
	}
	// 25,000 pods: fine for the command line, not for the browser.
	big := strings.Replace(strings.Replace(absurd, "maxPods: 100000, maxSteps: 10000000", "maxPods: 25000", 1), "replicas: 100000", "replicas: 25000", 1)
	if _, err := session.Load("big.yaml", []byte(big), nil); err != nil {
		t.Fatalf("the command line refuses what it allows: %v", err)
	}
	e = callErr(t, a, "load", map[string]any{"source": big, "name": "big.yaml"})
	if !strings.Contains(e.Message, "spec.limits.maxPods: 25000 is more than the browser allows") {
		t.Fatalf("big file: %+v", e)
	}
	var s snap
	callOK(t, a, "view", nil, &s)
	if len(s.View.Deployments) != 1 || s.View.Deployments[0].Replicas != 10 {
		t.Fatalf("session lost after a refused load: %+v", s.View)
	}
}

// A move given the pods token of the view shown answers "pods": null and
// "podsSame": true when it wrote no pod, and the whole list otherwise.
func TestMovesLeaveOutPodsThatDidNotChange(t *testing.T) {
	a := methods()
	src, _ := scenarios.Source(scenarios.Default)
	type podsSnap struct {
		View struct {
			Step      int               `json:"step"`
			Pods      []json.RawMessage `json:"pods"`
			PodsToken string            `json:"podsToken"`
			PodsSame  bool              `json:"podsSame"`
		} `json:"view"`
	}
	var s podsSnap
	callOK(t, a, "load", map[string]any{"source": string(src), "name": "r.yaml"}, &s)
	callOK(t, a, "advance", map[string]any{"by": "settle"}, &s)
	if len(s.View.Pods) == 0 || s.View.PodsToken == "" {
		t.Fatalf("settled: %d pods, token %q", len(s.View.Pods), s.View.PodsToken)
	}
	token := s.View.PodsToken
	// Seeking to the same step writes nothing.
	var same podsSnap
	callOK(t, a, "seek", map[string]any{"step": s.View.Step, "podsSince": token}, &same)
	if !same.View.PodsSame || same.View.Pods != nil || same.View.PodsToken != token {
		t.Fatalf("same step: podsSame %v, %d pods, token %q (had %q)", same.View.PodsSame, len(same.View.Pods), same.View.PodsToken, token)
	}
	// Step 1 has no pods yet: another token, and the (empty) list given.
	var back podsSnap
	callOK(t, a, "seek", map[string]any{"step": 1, "podsSince": token}, &back)
	if back.View.PodsSame || back.View.PodsToken == token {
		t.Fatalf("step 1: podsSame %v, token %q (had %q)", back.View.PodsSame, back.View.PodsToken, token)
	}
}
