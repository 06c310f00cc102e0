package session

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

func load(t *testing.T, id string) *Session {
	t.Helper()
	src, ok := scenarios.Source(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	s, err := Load(id+".yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// viewJSON renders the view without MaxStep, ActionsHere and PodsToken,
// which record the session's history rather than the state.
func viewJSON(t *testing.T, s *Session) string {
	t.Helper()
	v := s.View(ViewOptions{})
	// What the session has computed and recorded, not what the run is: a
	// replay from step 0 computes no further than the step it stands at,
	// records a user action made here only once it applies it
	// (TestViewNamesTheActionsMadeHere tests ActionsHere), and has
	// rewritten its future fewer times (TestPodsTokenNamesThePods tests
	// PodsToken).
	v.MaxStep, v.ActionsHere, v.PodsToken = 0, nil, ""
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSeekBackReproducesTheSameState(t *testing.T) {
	s := load(t, "rolling-update-10-3-2")
	s.Advance(ByEvent, 40)
	at40 := viewJSON(t, s)
	trace40 := s.Sim().Recorder().Text()
	s.Advance(ByEvent, 60)
	if s.Step() != 100 || s.MaxStep() != 100 {
		t.Fatalf("step %d max %d", s.Step(), s.MaxStep())
	}
	if err := s.Seek(40); err != nil {
		t.Fatal(err)
	}
	if got := viewJSON(t, s); got != at40 {
		t.Fatal("the view at step 40 differs after a rewind")
	}
	if s.Sim().Recorder().Text() != trace40 {
		t.Fatal("the trace up to step 40 differs after a rewind")
	}
	if s.MaxStep() != 100 {
		t.Fatalf("a rewind forgot the computed future: max %d", s.MaxStep())
	}
	if err := s.Seek(100); err != nil || s.Step() != 100 {
		t.Fatalf("seek forward: %v, step %d", err, s.Step())
	}
	if err := s.Seek(-1); !errors.Is(err, ErrNoSuchStep) {
		t.Fatalf("Seek(-1) = %v", err)
	}
}

func TestUserActionsAreReplayedAndRewriteTheFuture(t *testing.T) {
	s := load(t, "rolling-update-10-3-2")
	s.Advance(ByEvent, 10)
	scale := scenario.Action{Type: scenario.ActionScale, Namespace: "default", Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}, Replicas: 3}
	msg, err := s.Apply(scale)
	if err != nil || msg != "deployment.apps/web scaled" {
		t.Fatalf("Apply: %q %v", msg, err)
	}
	s.Advance(ByEvent, 20)
	at30 := viewJSON(t, s)
	// Rewind before the action and come back: the action is re-applied.
	if err := s.Seek(5); err != nil {
		t.Fatal(err)
	}
	if d := s.View(ViewOptions{}).Deployments[0]; d.Replicas != 10 {
		t.Fatalf("at step 5 the deployment has %d replicas, want 10 (before the action)", d.Replicas)
	}
	if err := s.Seek(30); err != nil {
		t.Fatal(err)
	}
	if got := viewJSON(t, s); got != at30 {
		t.Fatal("replay with the user action gave a different state")
	}
	// A new action after rewinding to step 5 discards the old future.
	if err := s.Seek(5); err != nil {
		t.Fatal(err)
	}
	scale.Replicas = 6
	if _, err := s.Apply(scale); err != nil {
		t.Fatal(err)
	}
	if s.MaxStep() != 5 {
		t.Fatalf("old future kept: max %d", s.MaxStep())
	}
	if err := s.Seek(30); err != nil {
		t.Fatal(err)
	}
	if d := s.View(ViewOptions{}).Deployments[0]; d.Replicas != 6 {
		t.Fatalf("after replay the deployment has %d replicas, want 6", d.Replicas)
	}
}

func TestAdvanceGranularities(t *testing.T) {
	s := load(t, "adoption")
	steps := s.Advance(BySync, 1)
	if len(steps) == 0 || steps[len(steps)-1].Kind != sim.StepSync {
		t.Fatalf("BySync did not end with a sync: %+v", steps)
	}
	for _, st := range steps[:len(steps)-1] {
		if st.Kind == sim.StepSync {
			t.Fatal("BySync took more than one sync")
		}
	}
	s.Advance(BySettle, 1)
	if !s.Sim().Idle() {
		t.Fatal("settle left work due")
	}
	if len(s.Samples()) != s.Step()+1 {
		t.Fatalf("%d samples for %d steps", len(s.Samples()), s.Step())
	}
	if _, err := ParseGranularity("leap"); err == nil {
		t.Fatal("unknown granularity accepted")
	}
}

func TestLoadErrors(t *testing.T) {
	_, err := Load("bad.yaml", []byte("kind: Deployment\napiVersion: apps/v1\nmetadata: {name: x}\nspec:\n  replicas: [1]\n"), nil)
	if errs := scenario.Errors(err); len(errs) == 0 || errs[0].Line != 5 {
		t.Fatalf("parse error = %v", err)
	}
	// Valid YAML the API server refuses: the selector does not match.
	src := strings.Replace(tinyDeployment, "labels: {app: web}", "labels: {app: other}", 1)
	_, err = Load("refused.yaml", []byte(src), nil)
	var setup *SetupError
	if !errors.As(err, &setup) || !strings.Contains(setup.Message, "`selector` does not match template `labels`") {
		t.Fatalf("setup error = %v", err)
	}
	// The problem is placed at the line of the field the API server names.
	if errs := scenario.Errors(err); len(errs) != 1 || setup.Line() != 11 || errs[0].Line != 11 || errs[0].Field != "spec.template.metadata.labels" {
		t.Fatalf("setup problems = %v (line %d)", errs, setup.Line())
	}
}

func TestKubectlViews(t *testing.T) {
	s := load(t, "adoption")
	s.Advance(BySettle, 1)
	for _, cmd := range []string{"get pods", "get rs -o wide", "get deploy", "kubectl get po"} {
		if _, err := s.Kubectl(cmd); err != nil {
			t.Errorf("%s: %v", cmd, err)
		}
	}
	if _, err := s.Kubectl("delete pods --all"); !errors.Is(err, ErrUnknownCommand) {
		t.Fatalf("unknown command: %v", err)
	}
	if _, err := s.Kubectl("describe rs nope"); err == nil {
		t.Fatal("describe of a missing RS succeeded")
	}
}

func TestViewCapsPods(t *testing.T) {
	s := load(t, "rolling-update-10-3-2")
	s.Advance(BySettle, 1)
	all := s.View(ViewOptions{})
	capped := s.View(ViewOptions{MaxPods: 3})
	if all.PodTotal != len(all.Pods) || all.PodTotal < 10 {
		t.Fatalf("uncapped: %d pods listed, total %d", len(all.Pods), all.PodTotal)
	}
	if len(capped.Pods) != 3 || capped.PodTotal != all.PodTotal {
		t.Fatalf("capped: %d listed, total %d (want 3 of %d)", len(capped.Pods), capped.PodTotal, all.PodTotal)
	}
	var nodePods int
	for _, n := range capped.Nodes {
		nodePods += n.Pods
	}
	if nodePods != all.PodTotal {
		t.Fatalf("node counts cover %d pods, want all %d even when the list is capped", nodePods, all.PodTotal)
	}
}

func TestStepObserverSeesEveryStepIncludingReplays(t *testing.T) {
	s := load(t, "adoption")
	var seen []int
	s.SetStepObserver(func(info sim.StepInfo) { seen = append(seen, info.Step) })
	s.Advance(ByEvent, 5)
	if err := s.Seek(2); err != nil {
		t.Fatal(err)
	}
	s.Advance(BySync, 1)
	want := []int{1, 2, 3, 4, 5, 1, 2}
	for i, w := range want {
		if i >= len(seen) || seen[i] != w {
			t.Fatalf("observer saw steps %v, want it to start %v", seen, want)
		}
	}
	if last := seen[len(seen)-1]; last != s.Step() {
		t.Fatalf("observer's last step %d, session at %d", last, s.Step())
	}
}

// TestViewRolloutBudget checks the bounds the cluster view shows with a
// Deployment: the fenceposts as the controller resolves them, and none for
// a Recreate Deployment.
func TestViewRolloutBudget(t *testing.T) {
	for _, c := range []struct {
		id            string
		surge, unavai int32
		none          bool
	}{
		{id: "rolling-update-10-3-2", surge: 3, unavai: 2},
		{id: "max-surge-zero", surge: 0, unavai: 1},
		// 20 replicas, maxSurge 1, maxUnavailable 25%: 5, rounded down.
		{id: "compare-max-surge", surge: 1, unavai: 5},
		{id: "recreate", none: true},
	} {
		s := load(t, c.id)
		s.Advance(BySettle, 1)
		ds := s.View(ViewOptions{}).Deployments
		if len(ds) == 0 {
			t.Fatalf("%s: no Deployment in the view", c.id)
		}
		b := ds[0].Budget
		switch {
		case c.none && b != nil:
			t.Errorf("%s: budget %+v, want none", c.id, *b)
		case !c.none && (b == nil || b.MaxSurge != c.surge || b.MaxUnavailable != c.unavai):
			t.Errorf("%s: budget %+v, want surge %d unavailable %d", c.id, b, c.surge, c.unavai)
		}
	}
}

// A view names the user actions made at its step, for the What if? room to
// offer keeping them in a fork there: after acting at step 5 and playing
// on, step 5 names the action again once the user seeks back to it, and no
// other step does.
func TestViewNamesTheActionsMadeHere(t *testing.T) {
	s := load(t, "rolling-update-10-3-2")
	s.Advance(ByEvent, 5)
	if v := s.View(ViewOptions{}); len(v.ActionsHere) != 0 {
		t.Fatalf("before any action: %q", v.ActionsHere)
	}
	scale, err := s.ParseUserAction([]byte(`{"type":"scale","target":"deployment/web","replicas":4}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(scale); err != nil {
		t.Fatal(err)
	}
	want := []string{"scale deployment/web to 4"}
	if v := s.View(ViewOptions{}); !slices.Equal(v.ActionsHere, want) {
		t.Errorf("at the action's step: %q, want %q", v.ActionsHere, want)
	}
	s.Advance(ByEvent, 10)
	if v := s.View(ViewOptions{}); len(v.ActionsHere) != 0 {
		t.Errorf("10 steps on: %q", v.ActionsHere)
	}
	for _, n := range []int{4, 5, 6} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		got := s.View(ViewOptions{}).ActionsHere
		if n == 5 != slices.Equal(got, want) || n != 5 && len(got) != 0 {
			t.Errorf("seek to %d: %q", n, got)
		}
	}
}

// scenarios/node-failure.yaml fails node-2 1s after the rollout and
// recovers it 400s later. The view says the node is down from the failure
// on, while the API still has it Ready until the node controller's grace
// period has run out, and neither once it is back.
func TestViewNamesANodeThatStoppedResponding(t *testing.T) {
	s := load(t, "node-failure")
	node2 := func() NodeView {
		for _, n := range s.View(ViewOptions{}).Nodes {
			if n.Name == "node-2" {
				return n
			}
		}
		t.Fatal("no node-2 in the view")
		return NodeView{}
	}
	var failedAt time.Duration
	for len(s.Advance(ByEvent, 1)) > 0 {
		if n := node2(); n.Down {
			failedAt = s.Sim().Clock().Elapsed()
			if !n.Ready {
				t.Fatalf("node-2 NotReady at once, at %v", failedAt)
			}
			break
		}
	}
	if failedAt == 0 {
		t.Fatal("node-2 never went down")
	}
	grace := s.Sim().Options().Kubelet.NodeMonitorGracePeriod
	s.RunToTime(failedAt + grace - time.Second)
	if n := node2(); !n.Down || !n.Ready {
		t.Errorf("%v after the failure: %+v, want down and still Ready", grace-time.Second, n)
	}
	s.RunToTime(failedAt + grace + time.Second)
	if n := node2(); !n.Down || n.Ready {
		t.Errorf("%v after the failure: %+v, want down and NotReady", grace+time.Second, n)
	}
	s.RunToEnd()
	if n := node2(); n.Down || !n.Ready {
		t.Errorf("after the recovery: %+v", n)
	}
}

// A ReplicaSet deleted in the foreground waits on the foregroundDeletion
// finalizer until its pods are gone, one deleted with orphan on the orphan
// finalizer until the garbage collector has released them: the view names
// the finalizer while the object is deleting.
func TestViewNamesTheFinalizersOfADeletingObject(t *testing.T) {
	for _, tc := range []struct{ scenario, finalizer string }{
		{"rs-delete-foreground", "foregroundDeletion"},
		{"rs-delete-orphan", "orphan"},
	} {
		s := load(t, tc.scenario)
		seen := false
		for len(s.Advance(ByEvent, 1)) > 0 && !seen {
			for _, rs := range s.View(ViewOptions{}).ReplicaSets {
				if !rs.Deleting {
					if len(rs.Finalizers) != 0 {
						t.Fatalf("%s: %s lists finalizers %q before its deletion", tc.scenario, rs.Name, rs.Finalizers)
					}
					continue
				}
				seen = true
				if !slices.Equal(rs.Finalizers, []string{tc.finalizer}) {
					t.Errorf("%s: deleting %s lists %q, want %s", tc.scenario, rs.Name, rs.Finalizers, tc.finalizer)
				}
			}
		}
		if !seen {
			t.Errorf("%s: no ReplicaSet was ever shown deleting", tc.scenario)
		}
	}
}
