package scenariotest

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Must-show tests of issue #9's fidelity items, each on a small scenario.

// scenarioDoc is a Scenario document with the given timeline (YAML list
// items indented by two spaces) and cluster block, followed by objects.
func scenarioDoc(name, cluster, timeline string, objects ...string) string {
	s := "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: " + name + "}\nspec:\n  seed: 1\n"
	if cluster != "" {
		s += "  cluster:\n" + cluster
	}
	if timeline != "" {
		s += "  timeline:\n" + timeline
	}
	for _, o := range objects {
		s += "---\n" + o
	}
	return s
}

// webDeployment is a 2-replica Deployment; extra is spliced into the pod
// template's metadata, container adds fields to its container.
func webDeployment(templateMeta, container string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
` + templateMeta + `    spec:
      containers:
      - name: web
        image: nginx:1.25
` + container
}

// actionRecords returns the text of every timeline action record.
func (r *Runner) actionRecords() []string { return r.texts(trace.KindAction) }

// A template without image is refused by the API server when the scenario
// loads, with upstream's field path.
func TestTemplateWithoutImageIsRefused(t *testing.T) {
	doc := strings.Replace(webDeployment("", ""), "        image: nginx:1.25\n", "", 1)
	_, err := session.Load("noimage.yaml", []byte(doc), nil)
	if err == nil || !strings.Contains(err.Error(), `Deployment.apps "web" is invalid: spec.template.spec.containers[0].image: Required value`) {
		t.Fatalf("err = %v", err)
	}
}

// kubectl scale goes through the scale subresource; a status sent to the
// main resource is ignored, one sent to /status is written.
func TestScaleSubresourceAndStatusOnlyThroughStatus(t *testing.T) {
	timeline := `  - after: 10s
    action: scale
    target: deployment/web
    replicas: 3
  - after: 10s
    action: writeStatus
    target: deployment/web
    replicas: 9
    via: main
`
	r := load(t, "sub.yaml", scenarioDoc("sub", "", timeline, webDeployment("", "")))
	r.finish(t, true)
	if got := r.texts(trace.KindAPI, "kubectl patch deployments/scale default/web -> 200"); len(got) != 1 {
		t.Errorf("scale requests: %v", r.texts(trace.KindAPI, "kubectl"))
	}
	acts := strings.Join(r.actionRecords(), "\n")
	if !strings.Contains(acts, "write status.replicas=9 of deployment/web via main: deployment.apps/web replaced; status.replicas 9 ignored (status is written only through /status; it stays 3)") {
		t.Errorf("main-resource status write not shown as ignored:\n%s", acts)
	}
	if d := deployment(t, r.Sess.Sim(), "web"); d.Status.Replicas != 3 {
		t.Errorf("status.replicas %d, want 3", d.Status.Replicas)
	}
	for name := range ownedRS(r.Sess.Sim(), "web") {
		msg := r.apply(t, `{"type":"writeStatus","target":"replicaset/`+name+`","replicas":1,"via":"main"}`)
		if !strings.Contains(msg, "status.replicas 1 ignored") {
			t.Errorf("ReplicaSet status through the main resource: %q", msg)
		}
	}
	// Through /status the write lands (and the controller then corrects it).
	msg := r.apply(t, `{"type":"writeStatus","target":"deployment/web","replicas":3,"via":"status"}`)
	if !strings.Contains(msg, "status replaced (status.replicas 3)") {
		t.Errorf("status write: %q", msg)
	}
	if got := r.texts(trace.KindAPI, "kubectl update deployments/status default/web -> 200"); len(got) != 1 {
		t.Errorf("status write request missing")
	}
}

// A foreground-deleting Deployment waits for its ReplicaSet, which waits
// for its pods; the pods carry a finalizer from the template, so they stay
// (terminated, kept) until a timeline action removes it. Once the last
// one is gone, the ReplicaSet and then the Deployment disappear.
func TestForegroundOwnerWaitsForDependentFinalizers(t *testing.T) {
	timeline := `  - when: {available: {target: deployment/web, atLeast: 2}}
    action: delete
    target: deployment/web
    propagationPolicy: Foreground
`
	r := load(t, "fin.yaml", scenarioDoc("fin", "", timeline, webDeployment("      finalizers: [example.com/hold]\n", "")))
	r.RunToEnd()
	sm := r.Sess.Sim()
	d := deployment(t, sm, "web")
	if d.DeletionTimestamp == nil || !strings.Contains(strings.Join(d.Finalizers, ","), "foregroundDeletion") {
		t.Fatalf("deployment %v finalizers %v: want it waiting in foreground deletion", d.DeletionTimestamp, d.Finalizers)
	}
	pods := sm.Server().ListPods("default", nil)
	if len(pods) != 2 {
		t.Fatalf("%d pods, want the 2 held by their finalizer", len(pods))
	}
	if kept := r.texts(trace.KindKubelet, "pod kept until its finalizers are removed: example.com/hold"); len(kept) != 2 {
		t.Errorf("kubelet records: %v", r.texts(trace.KindKubelet, "terminated"))
	}
	for i, p := range pods {
		if p.DeletionTimestamp == nil {
			t.Fatalf("pod %s not being deleted", p.Name)
		}
		msg := r.apply(t, `{"type":"removeFinalizer","target":"pod/`+p.Name+`","finalizer":"example.com/hold"}`)
		if msg != "pod/"+p.Name+" patched" {
			t.Errorf("message %q", msg)
		}
		r.Advance(t)
		_, err := sm.Server().GetDeployment("default", "web")
		if gone := err != nil; gone != (i == 1) {
			t.Fatalf("after removing %d finalizer(s): deployment gone=%v", i+1, gone)
		}
	}
	if n := len(sm.Server().ListReplicaSets("default", nil)); n != 0 {
		t.Fatalf("%d ReplicaSets left", n)
	}
	// Removing a finalizer that is not there changes nothing.
	if _, err := r.Sess.ParseUserAction([]byte(`{"type":"removeFinalizer","target":"pod/x","finalizer":""}`)); err == nil {
		t.Error("an empty finalizer name was accepted")
	}
}

// Advance settles the session (tests: let the cluster react).
func (r *Runner) Advance(t testing.TB) { t.Helper(); r.Settle() }

// Delete options: with none at all the object's own orphan finalizer
// decides (the pods survive as orphans); kubectl's delete sends Background
// and overrides it; orphanDependents with propagationPolicy and an unknown
// policy reach the API server and get its 422.
func TestDeleteOptions(t *testing.T) {
	rs := func(name string) string {
		return `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: ` + name + `
  finalizers: [orphan]
spec:
  replicas: 2
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata: {labels: {app: ` + name + `}}
    spec:
      containers: [{name: c, image: nginx:1.25}]
`
	}
	timeline := `  - after: 10s
    action: delete
    target: replicaset/raw
    options: {propagationPolicy: Orphan, orphanDependents: true}
  - after: 1s
    action: delete
    target: replicaset/raw
    propagationPolicy: Sideways
  - after: 1s
    action: delete
    target: replicaset/raw
    options: {}
  - after: 1s
    action: delete
    target: replicaset/kubectl
`
	r := load(t, "del.yaml", scenarioDoc("del", "", timeline, rs("raw"), rs("kubectl")))
	r.RunToEnd()
	acts := r.actionRecords()
	want := []string{
		`delete replicaset/raw (propagationPolicy=Orphan, orphanDependents=true): error: DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set`,
		`delete replicaset/raw (propagationPolicy=Sideways): error: DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"`,
		`delete replicaset/raw (no delete options): replicaset.apps "raw" deleted`,
		`delete replicaset/kubectl --cascade=background: replicaset.apps "kubectl" deleted`,
	}
	got := strings.Join(acts[len(acts)-4:], "\n")
	if got != strings.Join(want, "\n") {
		t.Fatalf("actions:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	sm := r.Sess.Sim()
	if n := len(sm.Server().ListReplicaSets("default", nil)); n != 0 {
		t.Fatalf("%d ReplicaSets left", n)
	}
	var orphans, others int
	for _, p := range sm.Server().ListPods("default", nil) {
		switch {
		case p.Labels["app"] == "raw" && len(p.OwnerReferences) == 0 && p.DeletionTimestamp == nil:
			orphans++
		default:
			others++
		}
	}
	if orphans != 2 || others != 0 {
		t.Fatalf("orphans %d others %d: want raw's 2 pods orphaned, kubectl's deleted", orphans, others)
	}
}

// A hung application with a liveness probe is restarted by the kubelet in
// the same pods (restartCount grows, UIDs unchanged): the ReplicaSet does
// not replace them.
func TestLivenessProbeRestartsInPlace(t *testing.T) {
	cluster := `    images:
      nginx:1.25: {hangAfter: 30s}
`
	probe := `        livenessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5, failureThreshold: 2}
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 2}
`
	r := load(t, "live.yaml", scenarioDoc("live", cluster, "", webDeployment("", probe)))
	sm := r.Sess.Sim()
	r.stepUntil(t, "2 pods available", func(sm *sim.Sim) bool {
		d, err := sm.Server().GetDeployment("default", "web")
		return err == nil && d.Status.AvailableReplicas == 2
	}, 1000)
	uids := map[string]bool{}
	for _, p := range sm.Server().ListPods("default", nil) {
		uids[string(p.UID)] = true
	}
	for i := 0; i < 2000 && sm.Clock().Elapsed() < 3*time.Minute; i++ {
		if _, ok := r.StepOnce(); !ok {
			break
		}
	}
	pods := sm.Server().ListPods("default", nil)
	if len(pods) != 2 || len(uids) != 2 {
		t.Fatalf("%d pods (%d at first)", len(pods), len(uids))
	}
	for _, p := range pods {
		if !uids[string(p.UID)] {
			t.Errorf("pod %s is new: the container should have restarted in place", p.Name)
		}
		if rc := p.Status.ContainerStatuses[0].RestartCount; rc < 1 {
			t.Errorf("pod %s restartCount %d, want >= 1", p.Name, rc)
		}
	}
	if got := r.texts(trace.KindKubelet, "killed", "liveness probe failed 2 times"); len(got) < 2 {
		t.Errorf("liveness kills: %v", got)
	}
	if got := r.texts(trace.KindAPI, "replicaset-controller create pods"); len(got) != 2 {
		t.Errorf("the ReplicaSet created %d pods, want only the first 2", len(got))
	}
	// The outages are the pods' own doing: no invariant is broken.
	if msg := r.Failure(r.Violations); msg != "" {
		t.Error(msg)
	}
}
