package main

import (
	"os"
	"strings"
	"testing"
)

// load returns the file's notices; specOnly starts pasted cluster output
// from its specs; API server causes come one per entry at their lines.
func TestLoadNoticesAndSpecOnly(t *testing.T) {
	a := methods()
	multi := "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n---\n" +
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {matchLabels: {app: web}}\n" +
		"  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: \"nginx:1.27\"}]}\n"
	var s struct {
		View struct {
			Scenario    string `json:"scenario"`
			PodTotal    int    `json:"podTotal"`
			Deployments []struct {
				Namespace string `json:"namespace"`
			} `json:"deployments"`
		} `json:"view"`
		Notices []struct {
			Line    int    `json:"line"`
			Kind    string `json:"kind"`
			Name    string `json:"name"`
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"notices"`
	}
	callOK(t, a, "load", map[string]any{"source": multi}, &s)
	if len(s.Notices) != 2 || s.Notices[0].Code != "ignored" || s.Notices[0].Kind != "Service" || s.Notices[0].Line != 1 ||
		s.View.Deployments[0].Namespace != "shop" || s.View.Scenario != "web" {
		t.Fatalf("multi-kind load: %+v", s)
	}

	live, err := os.ReadFile("../engine/scenario/testdata/live/stuck-rollout.yaml")
	if err != nil {
		t.Fatal(err)
	}
	callOK(t, a, "load", map[string]any{"source": string(live)}, &s)
	if s.View.PodTotal != 13 {
		t.Fatalf("live load: %d pods at step 0", s.View.PodTotal)
	}
	callOK(t, a, "load", map[string]any{"source": string(live), "specOnly": true}, &s)
	if s.View.PodTotal != 0 || s.Notices[len(s.Notices)-1].Code != "stripped" {
		t.Fatalf("spec-only load: %d pods, notices %+v", s.View.PodTotal, s.Notices)
	}

	bad := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: -1\n  selector: {matchLabels: {app: web}}\n" +
		"  template:\n    metadata: {labels: {app: other}}\n    spec: {containers: [{name: web, image: x}]}\n"
	e := callErr(t, a, "load", map[string]any{"source": bad})
	if len(e.Errors) != 2 || e.Errors[0].Line != 5 || e.Errors[0].Field != "spec.replicas" || e.Errors[1].Line != 8 || e.Line != 5 ||
		!strings.Contains(e.Errors[1].Message, "`selector` does not match template `labels`") {
		t.Fatalf("refused load: %+v", e)
	}
}
