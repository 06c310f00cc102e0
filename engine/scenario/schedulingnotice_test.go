package scenario

import (
	"strings"
	"testing"
)

// TestSchedulingNotice checks that a pod template's scheduling rules are
// named in a notice at the line of the first, that a Linux-only
// nodeSelector, required anti-affinity on the node topology (simulated)
// and a pod a ReplicaSet owns are not, and that a file without such rules
// has no scheduling notice.
func TestSchedulingNotice(t *testing.T) {
	src := `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 3
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: api}}
            topologyKey: topology.kubernetes.io/zone
      nodeSelector: {disktype: ssd}
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: api}}}
      containers: [{name: api, image: api:1}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: linux}
spec:
  replicas: 1
  selector: {matchLabels: {app: linux}}
  template:
    metadata: {labels: {app: linux}}
    spec:
      nodeSelector: {kubernetes.io/os: linux, beta.kubernetes.io/os: linux}
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: linux}}
            topologyKey: kubernetes.io/hostname
      containers: [{name: c, image: c:1}]
---
apiVersion: v1
kind: Pod
metadata:
  name: owned
  labels: {app: x}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: x-1, uid: u1, controller: true}]
spec:
  nodeSelector: {disktype: ssd}
  containers: [{name: c, image: c:1}]
---
apiVersion: v1
kind: Pod
metadata: {name: bare}
spec:
  nodeSelector: {disktype: ssd}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]
  containers: [{name: c, image: c:1}]
`
	s, err := Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range s.Notices {
		if n.Code == NoticeScheduling {
			got = append(got, NoticeText(n))
		}
	}
	want := []string{
		"document 1, line 11: Deployment/api: spec.template.spec.affinity.podAntiAffinity, spec.template.spec.nodeSelector, spec.template.spec.topologySpreadConstraints: " + schedulingMessage,
		"document 4, line 51: Pod/bare: spec.affinity.nodeAffinity, spec.nodeSelector: " + schedulingMessage, // the earliest line of the two
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scheduling notices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The library's scenarios set no such rules.
	s, err = Parse("plain.yaml", []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: c:1}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range s.Notices {
		if n.Code == NoticeScheduling {
			t.Errorf("a Deployment without scheduling rules got %q", NoticeText(n))
		}
	}
}
