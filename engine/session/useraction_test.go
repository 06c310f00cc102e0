package session

import (
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

const tinyDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`

func TestParseUserAction(t *testing.T) {
	s, err := Load("tiny.yaml", []byte(tinyDeployment), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.ParseUserAction([]byte(`{"type":"scale","target":"deploy/web","replicas":5}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.Type != scenario.ActionScale || a.Target.Kind != scenario.KindDeployment || a.Target.Name != "web" || a.Replicas != 5 {
		t.Fatalf("parsed %+v", a)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"type":"scale","target":"deploy/web","replicas":-1}`, "replicas"},
		{`{"type":"failNode","node":"node-9"}`, "node-9"},
		{`{"type":"teleport"}`, "teleport"},
		{`[1]`, "JSON object"},
		{`{"target":"deploy/web"}`, "JSON object"},
		{`{"type":"undo","target":"deploy/web","toRevision":92233720368547758070}`, "invalid value 92233720368547758070"},
		// The pod limit the scenario loaded under (10,000 by default).
		{`{"type":"scale","target":"deploy/web","replicas":1000000}`, "invalid scale action: replicas: 1000000 replicas need more pods than the pod limit, 10000 (spec.limits.maxPods)"},
		// So does a manifest applied from the form.
		{`{"type":"apply","manifest":"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1000000\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n"}`, "invalid apply action: manifest line 5: spec.replicas: 1000000 replicas need more pods than the pod limit, 10000"},
	} {
		_, err := s.ParseUserAction([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
}
