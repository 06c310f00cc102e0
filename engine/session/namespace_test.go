package session

import (
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// shopScenario is a Helm-style namespaced two-container Deployment with a
// timeline that waits for its rollout in namespace shop.
const shopScenario = `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: shop}
spec:
  timeline:
  - when: {rolloutComplete: {target: deployment/web, namespace: shop}}
    action: setMinReadySeconds
    target: deployment/web
    namespace: shop
    minReadySeconds: 2
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels: {app.kubernetes.io/name: web}
spec:
  replicas: 4
  selector:
    matchLabels: {app.kubernetes.io/name: web}
  template:
    metadata:
      labels: {app.kubernetes.io/name: web}
    spec:
      containers:
      - name: app
        image: shop/web:1
        env: [{name: MODE, value: prod}]
      - name: log
        image: busybox:1
`

func loadShop(t *testing.T) *Session {
	t.Helper()
	s, err := Load("shop.yaml", []byte(shopScenario), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func act(t *testing.T, s *Session, raw string) (string, error) {
	t.Helper()
	a, err := s.ParseUserAction([]byte(raw))
	if err != nil {
		return "", err
	}
	return s.Apply(a)
}

func TestNamespacedDeploymentEndToEnd(t *testing.T) {
	s := loadShop(t)
	s.Advance(BySettle, 1)
	if got, _ := s.Kubectl("rollout status deployment/web -n shop"); got != `deployment "web" successfully rolled out` {
		t.Fatalf("rollout status -n shop = %q", got)
	}
	if !strings.Contains(s.Sim().Recorder().Text(), "apply deployment/web -n shop: deployment.apps/web created") {
		t.Error("the set-up action does not name the namespace")
	}
	d, _ := s.Sim().Server().GetDeployment("shop", "web")
	if d.Spec.MinReadySeconds != 2 {
		t.Fatalf("the timeline's namespaced when/action did not run: minReadySeconds %d", d.Spec.MinReadySeconds)
	}
	if got, _ := s.Kubectl("get deploy"); got != "No resources found in default namespace.\n" {
		t.Fatalf("get deploy without -n = %q", got)
	}
	if _, err := s.Kubectl("rollout status deployment/web"); err == nil || err.Error() != `Error from server (NotFound): deployments.apps "web" not found` {
		t.Fatalf("rollout status without -n: %v", err)
	}

	// The error for a target in the wrong namespace says where it is.
	_, err := act(t, s, `{"type":"setImage","target":"deployment/web","container":"app","image":"shop/web:2"}`)
	if err == nil || err.Error() != `no deployment "web" in namespace default; found: shop/web` {
		t.Fatalf("wrong namespace: %v", err)
	}
	_, err = act(t, s, `{"type":"setImage","target":"shop/web","image":"shop/web:2"}`)
	if err == nil || !strings.Contains(err.Error(), `write target: deployment/web and namespace: shop`) {
		t.Fatalf("shop/web: %v", err)
	}
	_, err = act(t, s, `{"type":"setImage","target":"deployment/web","namespace":"shop","image":"shop/web:2"}`)
	if err == nil || err.Error() != "container: required when the pod template has more than one container (containers: app, log)" {
		t.Fatalf("no container: %v", err)
	}
	msg, err := act(t, s, `{"type":"setImage","target":"deployment/web","namespace":"shop","container":"app","image":"shop/web:2"}`)
	if err != nil || msg != "deployment.apps/web image updated" {
		t.Fatalf("set image: %q %v", msg, err)
	}
	s.Advance(BySettle, 1)
	if got, _ := s.Kubectl("rollout status deploy/web --namespace=shop"); got != `deployment "web" successfully rolled out` {
		t.Fatalf("after set image: %q", got)
	}
	hist, err := s.Kubectl("rollout history deployment/web -n shop")
	if err != nil || hist != "deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n" {
		t.Fatalf("history: %q %v", hist, err)
	}
	get, err := s.Kubectl("get deploy,rs -A")
	if err != nil || !strings.HasPrefix(get, "NAMESPACE   NAME                  READY   UP-TO-DATE   AVAILABLE   AGE\nshop        deployment.apps/web   4/4") {
		t.Fatalf("get -A: %q %v", get, err)
	}
	desc, err := s.Kubectl("describe deployment web -n shop")
	if err != nil || !strings.Contains(desc, "Namespace:              shop") || !strings.Contains(desc, "(0/0 replicas created)") {
		t.Fatalf("describe -n shop: %q %v", desc, err)
	}
	targets := s.Targets()
	if len(targets) != 1 || targets[0].Namespace != "shop" || targets[0].Target != "deployment/web" ||
		len(targets[0].Containers) != 2 || targets[0].Containers[0].Image != "shop/web:2" || targets[0].Containers[1].Image != "busybox:1" {
		t.Fatalf("targets: %+v", targets)
	}
}

// TestEditActionsThroughSession runs each user action on shop/web: its
// kubectl reply, or its error naming the field.
func TestEditActionsThroughSession(t *testing.T) {
	for _, tc := range []struct{ action, want string }{
		{`{"type":"scale","target":"deploy/web","namespace":"shop","replicas":6}`, "deployment.apps/web scaled"},
		{`{"type":"setRollingUpdate","target":"deploy/web","namespace":"shop","maxSurge":"50%","maxUnavailable":0}`, "deployment.apps/web patched"},
		{`{"type":"setRollingUpdate","target":"deploy/web","namespace":"shop","maxSurge":"1x"}`, `error: Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: "1x"`},
		{`{"type":"setRollingUpdate","target":"deploy/web","namespace":"shop"}`, "error: invalid setRollingUpdate action: maxSurge: one of maxSurge and maxUnavailable is required"},
		{`{"type":"setStrategy","target":"deploy/web","namespace":"shop","strategy":"Recreate"}`, "deployment.apps/web patched"},
		{`{"type":"setStrategy","target":"deploy/web","namespace":"shop","strategy":"Recreate","maxSurge":1}`, "error: Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{`{"type":"setMinReadySeconds","target":"deploy/web","namespace":"shop","minReadySeconds":-1}`, "error: Deployment.apps \"web\" is invalid: spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"},
		{`{"type":"setProgressDeadline","target":"deploy/web","namespace":"shop","progressDeadlineSeconds":30}`, "deployment.apps/web patched"},
		{`{"type":"setResources","target":"deploy/web","namespace":"shop","container":"log","resources":{"limits":{"memory":"64Mi"}}}`, "deployment.apps/web resource requirements updated"},
		{`{"type":"setResources","target":"deploy/web","namespace":"shop","container":"db","resources":{"limits":{"memory":"64Mi"}}}`, `error: unable to find container named "db" (containers: app, log)`},
		{`{"type":"setEnv","target":"deploy/web","namespace":"shop","container":"app","env":{"MODE":null,"LEVEL":"debug"}}`, "deployment.apps/web env updated"},
		{`{"type":"restart","target":"deploy/web","namespace":"shop"}`, "deployment.apps/web restarted"},
		{`{"type":"pause","target":"deploy/web","namespace":"shop"}`, "deployment.apps/web paused"},
		{`{"type":"undo","target":"deploy/web","namespace":"shop"}`, `error: no rollout history found for deployment "web"`},
		{`{"type":"delete","target":"deploy/web","namespace":"shop"}`, `deployment.apps "web" deleted`},
		{`{"type":"scale","target":"deploy/api","namespace":"shop","replicas":1}`, `error: no deployment "api" in namespace shop; found: shop/web`},
	} {
		s := loadShop(t)
		s.Advance(ByEvent, 5)
		msg, err := act(t, s, tc.action)
		got := msg
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.action, got, tc.want)
		}
	}
}

// TestRestartStampsTheVirtualClock: rollout restart's annotation is the
// simulation's now, so a replay gives the same value.
func TestRestartStampsTheVirtualClock(t *testing.T) {
	s := loadShop(t)
	s.Advance(BySettle, 1)
	if _, err := act(t, s, `{"type":"restart","target":"deployment/web","namespace":"shop"}`); err != nil {
		t.Fatal(err)
	}
	d, _ := s.Sim().Server().GetDeployment("shop", "web")
	want := s.Sim().Now().Format("2006-01-02T15:04:05Z07:00")
	if got := d.Spec.Template.Annotations[kubectl.RestartedAtAnnotation]; got != want {
		t.Fatalf("restartedAt = %q, want %q", got, want)
	}
}

// TestApplyEditedYAMLKeepsTheRun: applying an edited Deployment at step N
// keeps steps 1..N as they were and continues from there with the new spec.
func TestApplyEditedYAMLKeepsTheRun(t *testing.T) {
	s := loadShop(t)
	s.Advance(ByEvent, 12)
	before := append([]sim.StepInfo(nil), s.History()...)
	edited := strings.SplitN(shopScenario, "---\n", 2)[1]
	edited = strings.Replace(edited, "replicas: 4", "replicas: 7", 1)
	raw := `{"type":"apply","manifest":` + quoteJSON(edited) + `}`
	msg, err := act(t, s, raw)
	if err != nil || msg != "deployment.apps/web configured" {
		t.Fatalf("apply: %q %v", msg, err)
	}
	if s.Step() != 12 || len(s.History()) != 12 {
		t.Fatalf("step %d, history %d", s.Step(), len(s.History()))
	}
	for i, st := range s.History() {
		if st != before[i] {
			t.Fatalf("step %d changed: %+v vs %+v", i+1, st, before[i])
		}
	}
	s.Advance(BySettle, 1)
	d, _ := s.Sim().Server().GetDeployment("shop", "web")
	if *d.Spec.Replicas != 7 || d.Status.AvailableReplicas != 7 {
		t.Fatalf("after apply: spec %d, available %d", *d.Spec.Replicas, d.Status.AvailableReplicas)
	}
	// A rewind and replay passes the applied spec again at step 12.
	if err := s.Seek(0); err != nil {
		t.Fatal(err)
	}
	s.Advance(BySettle, 1)
	d, _ = s.Sim().Server().GetDeployment("shop", "web")
	if *d.Spec.Replicas != 7 {
		t.Fatalf("replay lost the applied spec: %d", *d.Spec.Replicas)
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestKubectlFlags: the flag spellings kubectl accepts, and its errors for
// those a command does not have.
func TestKubectlFlags(t *testing.T) {
	s := loadShop(t)
	s.Advance(BySettle, 1)
	same := []string{"get deploy -n shop", "get deploy -nshop", "get deploy --namespace=shop", "get deploy --namespace shop",
		"-n shop get deployments", "kubectl get deployment.apps -n shop"}
	want, err := s.Kubectl(same[0])
	if err != nil || !strings.HasPrefix(want, "NAME   READY   UP-TO-DATE") {
		t.Fatalf("%s: %q %v", same[0], want, err)
	}
	for _, cmd := range same[1:] {
		if got, err := s.Kubectl(cmd); err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", cmd, got, err, want)
		}
	}
	for _, tc := range []struct{ cmd, want string }{
		{"get pods -n shop -owide --no-headers", "web-"},
		{"get deploy web -n shop -o name", "deployment.apps/web\n"},
		{"get deploy -n shop -L app.kubernetes.io/name", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE   NAME\nweb    4/4     4            4           "},
		{"get deploy -n shop --show-labels", "LABELS\nweb"},
		{"rollout history deploy/web -n shop --revision 1", "deployment.apps/web with revision #1\nPod Template:\n"},
		{"rollout history deploy/web -n shop -o name", "replicaset.apps/web-"},
	} {
		got, err := s.Kubectl(tc.cmd)
		if err != nil || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q %v, want it to contain %q", tc.cmd, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ cmd, want string }{
		{"rollout status deploy/web -A", "error: unknown flag: --all-namespaces"},
		{"get deploy --bogus", "error: unknown flag: --bogus"},
		{"get deploy -x", "error: unknown shorthand flag: 'x' in -x"},
		{"get deploy -n", "error: flag needs an argument: -n"},
		{"get svc -n shop", `error: the server doesn't have a resource type "svc"`},
		{"get deploy nope -n shop", `Error from server (NotFound): deployments.apps "nope" not found`},
		{"rollout history deploy/web -n shop --revision=9", "error: unable to find the specified revision"},
		{"rollout history deploy/web -n shop --revision=x", `error: invalid argument "x" for "--revision" flag: must be an integer`},
		{"get deploy -o yaml", `error: output format "yaml" not supported here (use wide or name)`},
	} {
		if _, err := s.Kubectl(tc.cmd); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.cmd, err, tc.want)
		}
	}
}

// TestKubectlErrorsClipTheCommand: a huge command line is not echoed whole.
func TestKubectlErrorsClipTheCommand(t *testing.T) {
	s := loadShop(t)
	huge := strings.Repeat("x", 100_000)
	for _, cmd := range []string{"frobnicate " + huge, "get " + huge, "get deploy --" + huge, "get deploy -o " + huge} {
		if _, err := s.Kubectl(cmd); err == nil || len(err.Error()) > 1000 {
			t.Errorf("%.30s...: error %.80v", cmd, err)
		}
	}
}
