package main

import (
	"strings"
	"testing"
)

const surgeDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 20
  selector:
    matchLabels: {app: web}
  strategy:
    rollingUpdate: {maxSurge: 1, maxUnavailable: 25%}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`

type comparisonJSON struct {
	A, B struct {
		Label               string `json:"label"`
		ForkStep            int    `json:"forkStep"`
		TimeToComplete      int64  `json:"timeToCompleteNs"`
		PeakPods            int    `json:"peakPods"`
		PeakReplicaSetTotal int32  `json:"peakReplicaSetTotal"`
	}
	Divergence *struct {
		Step    int    `json:"step"`
		RecordB string `json:"recordB"`
	} `json:"divergence"`
	Events struct {
		OnlyA []struct{ Line string } `json:"onlyA"`
		OnlyB []struct{ Line string } `json:"onlyB"`
	} `json:"events"`
	ActionsAt []string             `json:"actionsAt"`
	KeptAt    bool                 `json:"keptAt"`
	SamplesA  []struct{ Step int } `json:"samplesA"`
	SamplesB  []struct{ Step int } `json:"samplesB"`
}

// Fork at the step where the image was set; B raises maxSurge to 100%
// first. The page's session stays where it was.
func TestForkBridge(t *testing.T) {
	a := methods()
	var s snap
	callOK(t, a, "load", map[string]any{"source": surgeDeployment}, &s)
	callOK(t, a, "advance", map[string]any{"by": "settle"}, &s)
	n := s.View.Step
	setImage := map[string]any{"type": "setImage", "target": "deployment/web", "image": "nginx:1.26"}
	callOK(t, a, "act", map[string]any{"action": setImage}, &s)
	callOK(t, a, "advance", map[string]any{"by": "event", "count": 7}, &s)
	var r comparisonJSON
	callOK(t, a, "fork", map[string]any{"atStep": n, "actions": []any{
		map[string]any{"type": "setRollingUpdate", "target": "deployment/web", "maxSurge": "100%"}, setImage}}, &r)
	if r.A.ForkStep != n || r.A.PeakReplicaSetTotal != 21 || r.B.PeakReplicaSetTotal != 40 || r.B.PeakPods != 40 ||
		r.A.TimeToComplete != 12e9 || r.B.TimeToComplete != 3e9 {
		t.Errorf("summaries %+v %+v", r.A, r.B)
	}
	if r.Divergence == nil || r.Divergence.Step != n+1 || !strings.Contains(r.Divergence.RecordB, "patch") && !strings.Contains(r.Divergence.RecordB, "maxSurge") {
		t.Errorf("divergence %+v", r.Divergence)
	}
	if len(r.SamplesB) == 0 || r.SamplesB[len(r.SamplesB)-1].Step != len(r.SamplesB)-1 || r.SamplesA[n].Step != n {
		t.Errorf("samples: %d A, %d B", len(r.SamplesA), len(r.SamplesB))
	}
	callOK(t, a, "view", nil, &s)
	if s.View.Step != n+7 {
		t.Errorf("the page's session moved to step %d, want %d", s.View.Step, n+7)
	}
	// The same alternative as a change on top of the image set at n: the
	// view at n names that action, and keepAt runs it before maxSurge.
	callOK(t, a, "seek", map[string]any{"step": n}, &s)
	if len(s.View.ActionsHere) != 1 || s.View.ActionsHere[0] != "set image deployment/web (first container)=nginx:1.26" {
		t.Errorf("actions at the fork step %q", s.View.ActionsHere)
	}
	var kept comparisonJSON
	callOK(t, a, "fork", map[string]any{"atStep": n, "keepAt": true, "action": map[string]any{"type": "setRollingUpdate", "target": "deployment/web", "maxSurge": "100%"}}, &kept)
	if !kept.KeptAt || len(kept.ActionsAt) != 1 || kept.B.PeakPods != 40 || kept.B.TimeToComplete != r.B.TimeToComplete {
		t.Errorf("kept the image: %+v %v %+v", kept.ActionsAt, kept.KeptAt, kept.B)
	}
	var instead comparisonJSON
	callOK(t, a, "fork", map[string]any{"atStep": n, "action": map[string]any{"type": "setRollingUpdate", "target": "deployment/web", "maxSurge": "100%"}}, &instead)
	if instead.KeptAt || len(instead.ActionsAt) != 1 || instead.B.PeakPods != 20 {
		t.Errorf("instead of the image: %+v %v %+v", instead.ActionsAt, instead.KeptAt, instead.B)
	}
	// An alternative the API server refuses: the error names run B and the
	// server's reason.
	e := callErr(t, a, "fork", map[string]any{"atStep": n, "action": map[string]any{"type": "setRollingUpdate", "target": "deployment/web", "maxSurge": 0, "maxUnavailable": 0}})
	if !strings.Contains(e.Message, "B: ") || !strings.Contains(e.Message, "maxUnavailable") {
		t.Errorf("error %q", e.Message)
	}
	e = callErr(t, a, "fork", map[string]any{"atStep": n, "action": map[string]any{"type": "scale", "target": "deployment/web", "replicas": -1}})
	if !strings.Contains(e.Message, "replicas") {
		t.Errorf("error %q", e.Message)
	}
}

func TestExportScenarioBridge(t *testing.T) {
	a := methods()
	callOK(t, a, "load", map[string]any{"source": surgeDeployment, "name": "web.yaml"}, nil)
	callOK(t, a, "advance", map[string]any{"by": "event", "count": 3}, nil)
	callOK(t, a, "act", map[string]any{"action": map[string]any{"type": "scale", "target": "deployment/web", "replicas": 4}}, nil)
	var out struct{ Name, YAML string }
	callOK(t, a, "exportScenario", nil, &out)
	if !strings.Contains(out.YAML, `  - {"action":"scale","replicas":4,"target":"deployment/web","when":{"step":3}}`+"\n---\n"+surgeDeployment) {
		t.Errorf("%+v", out)
	}
	callOK(t, a, "load", map[string]any{"source": out.YAML}, nil)
}
