package session

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// replicasOf reads spec.replicas of deployment/web from the API server.
func replicasOf(t *testing.T, s *Session) int32 {
	t.Helper()
	d, err := s.Sim().Server().GetDeployment("default", "web")
	if err != nil {
		t.Fatal(err)
	}
	return *d.Spec.Replicas
}

// An action that panics half-way (here an apply whose first object scales
// web to 17 and whose second is a typed nil the apply code dereferences) is
// undone: the session is back at the step it was made, without it, and the
// error says so. Replays do not bring it back.
func TestApplyPanicIsUndone(t *testing.T) {
	src := strings.Replace(tinyDeployment, "replicas: 2", "replicas: 10", 1)
	s, err := Load("tiny.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Advance(ByEvent, 5)
	at := s.Step()
	recordsBefore := s.Sim().Recorder().Len()
	d17, _ := s.Sim().Server().GetDeployment("default", "web")
	d17 = d17.DeepCopy()
	d17.ResourceVersion, d17.UID = "", ""
	seventeen := int32(17)
	d17.Spec.Replicas = &seventeen
	bad := scenario.Action{Type: scenario.ActionApply, Namespace: "default", Manifest: []scenario.Object{
		{Obj: d17}, {Obj: (*appsv1.Deployment)(nil)},
	}}

	_, err = s.Apply(bad)
	var pe *ActionPanicError
	if !errors.As(err, &pe) || pe.Step != at || pe.RestoreErr != nil || !pe.Panicked() {
		t.Fatalf("err = %v, want an undone ActionPanicError at step %d", err, at)
	}
	if !strings.Contains(err.Error(), "the action was undone (back at step 5 without it)") {
		t.Errorf("message %q", err.Error())
	}
	if got := replicasOf(t, s); got != 10 {
		t.Fatalf("replicas %d after the restore, want 10 (the half-applied 17 undone)", got)
	}
	if s.Step() != at || s.Sim().Recorder().Len() != recordsBefore {
		t.Fatalf("step %d records %d, want step %d records %d", s.Step(), s.Sim().Recorder().Len(), at, recordsBefore)
	}
	// The session goes on, and a rewind and replay does not re-apply it.
	s.Advance(BySettle, 1)
	end := s.Step()
	if err := s.Seek(0); err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(end); err != nil {
		t.Fatal(err)
	}
	if got := replicasOf(t, s); got != 10 {
		t.Fatalf("replicas %d after a replay, want 10", got)
	}
	if len(s.user) != 0 {
		t.Fatalf("user actions %v, want none", s.user)
	}
	// A good action after the failed one is kept as usual.
	if _, err := s.Apply(scenario.Action{Type: scenario.ActionScale, Namespace: "default", Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}, Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	if got := replicasOf(t, s); got != 3 {
		t.Fatalf("replicas %d, want 3", got)
	}
}

// Restore at step 0 rebuilds even when the session is already at step 0,
// so a state changed outside any step is repaired too.
func TestRestoreAtZeroRebuilds(t *testing.T) {
	s, err := Load("tiny.yaml", []byte(tinyDeployment), nil)
	if err != nil {
		t.Fatal(err)
	}
	before := s.Sim()
	if err := s.Restore(0); err != nil {
		t.Fatal(err)
	}
	if s.Sim() == before || s.Step() != 0 {
		t.Fatalf("Restore(0) kept the old simulation (step %d)", s.Step())
	}
}

// An action that panics late in a run is undone from the checkpoints kept
// (the one at or before its step, restored into a new simulation, then a
// short replay), not by a replay from step 0; the state is the one a replay
// from step 0 without the action reaches, and the session rewinds and
// plays on exactly afterwards, its checkpoints now restored detached.
func TestApplyPanicIsUndoneFromACheckpoint(t *testing.T) {
	src := benchScenario(150)
	seed := uint64(3)
	s, err := Load("b.yaml", src, &seed)
	if err != nil {
		t.Fatal(err)
	}
	s.cps.every, s.cps.max = 50, 8
	ref := &reference{t: t, src: src, seed: seed}
	s.Advance(ByEvent, 1234)
	at := s.Step()
	old := s.Sim()
	d, _ := s.Sim().Server().GetDeployment("default", "web")
	d = d.DeepCopy()
	d.ResourceVersion, d.UID = "", ""
	bad := scenario.Action{Type: scenario.ActionApply, Namespace: "default", Manifest: []scenario.Object{
		{Obj: d}, {Obj: (*appsv1.Deployment)(nil)},
	}}
	replayed := 0
	s.SetStepObserver(func(sim.StepInfo) { replayed++ })
	_, err = s.Apply(bad)
	s.SetStepObserver(nil)
	var pe *ActionPanicError
	if !errors.As(err, &pe) || pe.Step != at || pe.RestoreErr != nil {
		t.Fatalf("err = %v, want an undone ActionPanicError at step %d", err, at)
	}
	if s.Sim() == old {
		t.Fatal("the simulation the panic went through is still in use")
	}
	if replayed >= s.cps.every {
		t.Fatalf("%d steps replayed to undo the action, want fewer than the spacing %d", replayed, s.cps.every)
	}
	same(t, "undone", s, ref.at(at, true))
	for _, n := range []int{at - 3, 10, at + 200, at - 100} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		same(t, fmt.Sprintf("seek to %d after the undo", n), s, ref.at(n, true))
	}
}

// Restore does not trust a damaged list of checkpoints (here one left out
// of order, as a panic half-way through thinning could): it replays from
// step 0 and reaches the same state.
func TestRestoreWithDamagedCheckpointsReplaysFromZero(t *testing.T) {
	src := benchScenario(40)
	seed := uint64(3)
	s, err := Load("b.yaml", src, &seed)
	if err != nil {
		t.Fatal(err)
	}
	s.cps.every = 20
	s.Advance(ByEvent, 300)
	if len(s.cps.list) < 3 {
		t.Fatalf("%d checkpoints", len(s.cps.list))
	}
	s.cps.list[1], s.cps.list[2] = s.cps.list[2], s.cps.list[1]
	replayed := 0
	s.SetStepObserver(func(sim.StepInfo) { replayed++ })
	if err := s.Restore(250); err != nil {
		t.Fatal(err)
	}
	if replayed != 250 {
		t.Fatalf("%d steps replayed, want all 250", replayed)
	}
	same(t, "restore with damaged checkpoints", s, (&reference{t: t, src: src, seed: seed}).at(250, true))
}
