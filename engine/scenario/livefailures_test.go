package scenario

import (
	"strings"
	"testing"
)

// A pasted pod waiting in ImagePullBackOff gives its image the pull-error
// profile, one in CrashLoopBackOff the crash-loop one, with a notice at
// the pod's status; an image the scenario gives a profile keeps it.
func TestPastedFailingPodsProfileTheirImage(t *testing.T) {
	pod := func(name, image, reason string) string {
		return `- apiVersion: v1
  kind: Pod
  metadata: {name: ` + name + `, namespace: prod, creationTimestamp: "2025-03-02T09:00:00Z"}
  spec:
    nodeName: n1
    containers: [{name: app, image: ` + image + `}]
  status:
    phase: Pending
    containerStatuses:
    - name: app
      image: ` + image + `
      ready: false
      restartCount: 0
      state: {waiting: {reason: ` + reason + `}}
`
	}
	list := "apiVersion: v1\nkind: List\nitems:\n" + pod("a", "api:typo", "ImagePullBackOff") + pod("b", "api:typo", "ErrImagePull") + pod("c", "api:bad", "CrashLoopBackOff") + pod("d", "api:given", "ImagePullBackOff")
	src := `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: stuck}
spec:
  cluster:
    images:
      "api:given": {startDelay: 1s}
---
` + list
	s, err := Parse("stuck.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Cluster.Images["api:typo"]; !p.PullError || p.CrashLoop {
		t.Errorf("api:typo profile %+v, want pullError", p)
	}
	if p := s.Cluster.Images["api:bad"]; !p.CrashLoop || p.PullError {
		t.Errorf("api:bad profile %+v, want crashLoop", p)
	}
	if p := s.Cluster.Images["api:given"]; p.PullError {
		t.Errorf("api:given profile %+v: the scenario's own profile was replaced", p)
	}
	var said []string
	for _, n := range s.Notices {
		if strings.Contains(n.Message, "is simulated as") {
			said = append(said, n.Name+": "+n.Message)
		}
	}
	if len(said) != 2 || !strings.HasPrefix(said[0], "a: cluster output: container app is in ImagePullBackOff, so image api:typo is simulated as failing to pull") ||
		!strings.HasPrefix(said[1], "c: cluster output: container app is in CrashLoopBackOff, so image api:bad is simulated as crash-looping") {
		t.Errorf("notices:\n%s", strings.Join(said, "\n"))
	}
}
