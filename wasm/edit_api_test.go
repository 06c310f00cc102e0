package main

import (
	"strings"
	"testing"
)

// namespacedSource is a namespaced two-container Deployment, as a Helm
// chart renders it.
const namespacedSource = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: app, image: "shop/web:1"}
      - {name: log, image: "busybox:1"}
`

// TestTargetsAndEditActions drives the bridge as the what-if forms do:
// targets for the pickers, then act with the documented action shapes.
func TestTargetsAndEditActions(t *testing.T) {
	a := methods()
	var s snap
	callOK(t, a, "load", map[string]any{"source": namespacedSource}, &s)
	var tg struct {
		Deployments []struct {
			Namespace, Name, Target, Strategy string
			Replicas                          int32
			MaxSurge                          any
			ProgressDeadlineSeconds           int32
			Containers                        []struct{ Name, Image string }
		}
	}
	callOK(t, a, "targets", nil, &tg)
	if len(tg.Deployments) != 1 {
		t.Fatalf("targets: %+v", tg)
	}
	d := tg.Deployments[0]
	if d.Namespace != "shop" || d.Name != "web" || d.Target != "deployment/web" || d.Strategy != "RollingUpdate" ||
		d.MaxSurge != "25%" || d.ProgressDeadlineSeconds != 600 || d.Replicas != 3 ||
		len(d.Containers) != 2 || d.Containers[1].Name != "log" || d.Containers[1].Image != "busybox:1" {
		t.Fatalf("target: %+v", d)
	}
	for _, tc := range []struct {
		action map[string]any
		want   string
	}{
		{map[string]any{"type": "setImage", "target": "deployment/web", "namespace": "shop", "container": "log", "image": "busybox:2"}, "deployment.apps/web image updated"},
		{map[string]any{"type": "setRollingUpdate", "target": "deployment/web", "namespace": "shop", "maxSurge": "50%", "maxUnavailable": 0}, "deployment.apps/web patched"},
		{map[string]any{"type": "setStrategy", "target": "deployment/web", "namespace": "shop", "strategy": "Recreate"}, "deployment.apps/web patched"},
		{map[string]any{"type": "setMinReadySeconds", "target": "deployment/web", "namespace": "shop", "minReadySeconds": 5}, "deployment.apps/web patched"},
		{map[string]any{"type": "setProgressDeadline", "target": "deployment/web", "namespace": "shop", "progressDeadlineSeconds": 60}, "deployment.apps/web patched"},
		{map[string]any{"type": "setResources", "target": "deployment/web", "namespace": "shop", "container": "app", "resources": map[string]any{"requests": map[string]any{"cpu": "250m"}}}, "deployment.apps/web resource requirements updated"},
		{map[string]any{"type": "setEnv", "target": "deployment/web", "namespace": "shop", "container": "app", "env": map[string]any{"A": "1"}}, "deployment.apps/web env updated"},
		{map[string]any{"type": "restart", "target": "deployment/web", "namespace": "shop"}, "deployment.apps/web restarted"},
	} {
		callOK(t, a, "act", map[string]any{"action": tc.action}, &s)
		if s.Message != tc.want {
			t.Errorf("%v: message %q, want %q", tc.action["type"], s.Message, tc.want)
		}
	}
	tg.Deployments = nil
	callOK(t, a, "targets", nil, &tg)
	if d := tg.Deployments[0]; d.Strategy != "Recreate" || d.MaxSurge != nil || d.Containers[1].Image != "busybox:2" {
		t.Fatalf("targets after the edits: %+v", d)
	}
	for _, tc := range []struct {
		action map[string]any
		want   string
	}{
		{map[string]any{"type": "setImage", "target": "deployment/web", "image": "x:1"}, `no deployment "web" in namespace default; found: shop/web`},
		{map[string]any{"type": "setImage", "target": "deployment/web", "namespace": "shop", "container": "db", "image": "x:1"}, `unable to find container named "db" (containers: app, log)`},
		{map[string]any{"type": "setRollingUpdate", "target": "deployment/web", "namespace": "shop", "maxSurge": 1}, "spec.strategy.rollingUpdate: Forbidden"},
		{map[string]any{"type": "setMinReadySeconds", "target": "deployment/web", "namespace": "shop", "minReadySeconds": "5"}, "minReadySeconds: invalid value \"5\": must be an integer"},
	} {
		if e := callErr(t, a, "act", map[string]any{"action": tc.action}); !strings.Contains(e.Message, tc.want) {
			t.Errorf("%v: %+v, want %q", tc.action["type"], e, tc.want)
		}
	}
	var out struct{ Output string }
	callOK(t, a, "kubectl", map[string]any{"command": "get deploy"}, &out)
	if out.Output != "No resources found in default namespace.\n" {
		t.Fatalf("get deploy: %q", out.Output)
	}
	callOK(t, a, "kubectl", map[string]any{"command": "get deploy -n shop -o name"}, &out)
	if out.Output != "deployment.apps/web\n" {
		t.Fatalf("get deploy -n shop -o name: %q", out.Output)
	}
}
