package scenario

import (
	"strings"
	"testing"
)

// Pasted failing pods profile the image of their first container (the
// image the kubelet model takes a pod's profile from), whichever container
// is waiting, init containers included; an image some pasted pod runs
// ready, or one the scenario gives a profile, is left alone.
func TestPastedFailingPodsProfileTheirImage(t *testing.T) {
	pod := func(name, image, status string) string {
		return `- apiVersion: v1
  kind: Pod
  metadata: {name: ` + name + `, namespace: prod, creationTimestamp: "2025-03-02T09:00:00Z"}
  spec:
    nodeName: n1
    containers: [{name: app, image: ` + image + `}, {name: proxy, image: envoy:1}]
  status:
` + status
	}
	waiting := func(init bool, container, reason string) string {
		key := "containerStatuses"
		if init {
			key = "initContainerStatuses"
		}
		return `    phase: Pending
    ` + key + `:
    - {name: ` + container + `, image: x, ready: false, restartCount: 0, state: {waiting: {reason: ` + reason + `}}}
`
	}
	const readyStatus = "    phase: Running\n    conditions: [{type: Ready, status: \"True\"}]\n"
	const restartedReady = readyStatus + "    containerStatuses:\n    - {name: app, image: x, ready: true, restartCount: 5, lastState: {terminated: {exitCode: 1}}, state: {running: {}}}\n"
	list := "apiVersion: v1\nkind: List\nitems:\n" +
		pod("a", "api:typo", waiting(false, "app", "ImagePullBackOff")) +
		pod("b", "api:typo", waiting(false, "app", "ErrImagePull")) +
		pod("c", "api:bad", waiting(false, "app", "CrashLoopBackOff")) +
		pod("d", "api:given", waiting(false, "app", "ImagePullBackOff")) +
		pod("e", "api:v2", waiting(false, "proxy", "ImagePullBackOff")) + // a sidecar that cannot be pulled
		pod("f", "api:init", waiting(true, "migrate", "ImagePullBackOff")) + // an init container
		pod("g", "web:2.0.3", waiting(false, "app", "CrashLoopBackOff")) + // one flaky pod of an image...
		pod("h", "web:2.0.3", readyStatus) + // ...that another pod runs ready
		pod("i", "api:crash", waiting(false, "app", "CrashLoopBackOff")) + // crash-looping...
		pod("j", "api:crash", restartedReady) // ...and Ready between two back-offs
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
	for image, want := range map[string]string{"api:typo": "pull", "api:bad": "crash", "api:given": "", "api:v2": "pull", "api:init": "pull", "web:2.0.3": "", "envoy:1": "", "api:crash": "crash"} {
		p := s.Cluster.Images[image]
		got := ""
		if p.PullError {
			got = "pull"
		}
		if p.CrashLoop {
			got += "crash"
		}
		if got != want {
			t.Errorf("%s: profile %+v, want %q", image, p, want)
		}
	}
	var said []string
	for _, n := range s.Notices {
		if strings.Contains(n.Message, "are simulated as") {
			said = append(said, n.Name+": "+n.Message)
		}
	}
	want := []string{
		"a: cluster output: container app is in ImagePullBackOff and no pasted pod of image api:typo is ready, so its pods are simulated as failing to pull",
		"c: cluster output: container app is in CrashLoopBackOff and no pasted pod of image api:bad is ready, so its pods are simulated as crash-looping",
		"e: cluster output: container proxy is in ImagePullBackOff and no pasted pod of image api:v2 is ready",
		"f: cluster output: container migrate is in ImagePullBackOff and no pasted pod of image api:init is ready",
		"i: cluster output: container app is in CrashLoopBackOff and no pasted pod of image api:crash is ready",
	}
	if len(said) != len(want) {
		t.Fatalf("notices:\n%s", strings.Join(said, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(said[i], want[i]) {
			t.Errorf("notice %d:\n%s\nwant it to start\n%s", i, said[i], want[i])
		}
	}
}
