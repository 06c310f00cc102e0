package session

import (
	"os"
	"path/filepath"
	"testing"
)

// Every Helm-style manifest of engine/scenario/testdata/helm passes the API
// server at set-up (namespaced Deployments included) and rolls out: each
// Deployment ends with all its replicas available in its own namespace.
func TestHelmManifestsRollOut(t *testing.T) {
	files, _ := filepath.Glob("../scenario/testdata/helm/*.yaml")
	if len(files) < 20 {
		t.Fatalf("%d files", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Load(filepath.Base(f), src, nil)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		s.Advance(BySettle, 1)
		v := s.View(ViewOptions{})
		if len(v.Deployments) != len(s.Scenario().Objects) {
			t.Errorf("%s: %d deployments in the view, %d in the file", f, len(v.Deployments), len(s.Scenario().Objects))
		}
		for _, d := range v.Deployments {
			if d.Namespace == "default" || d.Status.Available != d.Replicas || d.Status.Updated != d.Replicas {
				t.Errorf("%s: %s/%s after settling: %+v of %d", f, d.Namespace, d.Name, d.Status, d.Replicas)
			}
		}
	}
}
