package main

import (
	"testing"

	"github.com/rolloutlab/rolloutlab/scenarios"
)

// TestLoadReturnsAnnotations: load hands the scenario's spec.annotations to
// the UI (presenter notes); a scenario without them returns none.
func TestLoadReturnsAnnotations(t *testing.T) {
	a := methods()
	src, ok := scenarios.Source("rolling-update-10-3-2")
	if !ok {
		t.Fatal("library scenario missing")
	}
	var s struct {
		Annotations []struct {
			At struct {
				Step   int    `json:"step"`
				Record string `json:"record"`
				Nth    int    `json:"nth"`
			} `json:"at"`
			Title string `json:"title"`
			Line  int    `json:"line"`
		} `json:"annotations"`
	}
	callOK(t, a, "load", map[string]any{"source": string(src), "name": "r.yaml"}, &s)
	if len(s.Annotations) != 4 {
		t.Fatalf("got %d annotations, want 4", len(s.Annotations))
	}
	if got := s.Annotations[1]; got.At.Record != "NewRSMath" || got.At.Nth != 2 || got.Title == "" || got.Line == 0 {
		t.Fatalf("second annotation = %+v", got)
	}
	if got := s.Annotations[2]; got.At.Step != 99 {
		t.Fatalf("third annotation = %+v, want at step 99", got)
	}
	plain := "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: p}\n"
	s.Annotations = nil
	callOK(t, a, "load", map[string]any{"source": plain}, &s)
	if len(s.Annotations) != 0 {
		t.Fatalf("plain scenario returned annotations %+v", s.Annotations)
	}
}
