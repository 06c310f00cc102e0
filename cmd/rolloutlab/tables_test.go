package main

import (
	"strings"
	"testing"
)

const shopDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: "shop/web:1"}]}
`

// TestRunTablesFollowTheNamespace: the timeline's tables list the
// namespace the objects live in (-n shop), or every namespace (-A) when
// they span several, rather than an empty default namespace.
func TestRunTablesFollowTheNamespace(t *testing.T) {
	code, out, stderr := runWithStdin(t.Context(), shopDeployment, "run", "-", "--tables", "end")
	if code != exitOK {
		t.Fatalf("exit %v: %s", code, stderr)
	}
	want := "\n$ kubectl get deploy,rs,pods -n shop    # at the end\nNAME                  READY   UP-TO-DATE   AVAILABLE   AGE\ndeployment.apps/web   2/2     2            2           "
	if !strings.Contains(out, want) {
		t.Fatalf("no -n shop table in:\n%s", out)
	}
	two := shopDeployment + "---\n" + strings.Replace(strings.Replace(shopDeployment, "namespace: shop", "namespace: default", 1), "name: web,", "name: api,", 1)
	code, out, stderr = runWithStdin(t.Context(), two, "run", "-", "--tables", "end")
	if code != exitOK {
		t.Fatalf("exit %v: %s", code, stderr)
	}
	if !strings.Contains(out, "\n$ kubectl get deploy,rs,pods -A    # at the end\nNAMESPACE   NAME                  READY") ||
		!strings.Contains(out, "\ndefault     deployment.apps/api   2/2") || !strings.Contains(out, "\nshop        deployment.apps/web   2/2") {
		t.Fatalf("no -A table in:\n%s", out)
	}
}
