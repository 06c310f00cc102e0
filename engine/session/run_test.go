package session

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/scenarios"
)

func loadLibrary(t *testing.T, id string) *Session {
	t.Helper()
	src, ok := scenarios.Source(id)
	if !ok {
		t.Fatalf("no library scenario %q", id)
	}
	s, err := Load(id, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The example in RunToEnd's doc comment.
func TestRunToEndAdoption(t *testing.T) {
	s := loadLibrary(t, "adoption")
	steps := s.RunToEnd()
	if len(steps) != 36 || s.Step() != 36 {
		t.Errorf("%d steps returned, at step %d; want 36", len(steps), s.Step())
	}
	if at := s.Sim().Clock().Elapsed(); at != 10*time.Second {
		t.Errorf("ended at %v, want 10s", at)
	}
	if p := s.Sim().PendingActions(); len(p) != 0 || !s.Sim().Idle() {
		t.Errorf("pending %v idle %v; want none pending and idle", p, s.Sim().Idle())
	}
	if n := len(s.Sim().Server().ListPods("", nil)); n != 0 {
		t.Errorf("%d pods left, want 0", n)
	}
}

// Every library scenario plays out without a limit stopping it and with no
// timeline action left pending.
func TestRunToEndLibrary(t *testing.T) {
	for _, id := range scenarios.IDs() {
		s := loadLibrary(t, id)
		s.RunToEnd()
		if err := s.Sim().Err(); err != nil {
			t.Errorf("%s: %v", id, err)
		}
		if p := s.Sim().PendingActions(); len(p) != 0 {
			t.Errorf("%s: actions pending at the end: %v", id, p)
		}
	}
}

// The example in RunToTime's doc comment, and the replay guarantee.
func TestRunToTimeAdoption(t *testing.T) {
	s := loadLibrary(t, "adoption")
	steps := s.RunToTime(7 * time.Second)
	if at := s.Sim().Clock().Elapsed(); at != 7*time.Second {
		t.Fatalf("stopped at %v, want 7s", at)
	}
	rs, err := s.Sim().Server().GetReplicaSet("default", "replicatest")
	if err != nil {
		t.Fatal(err)
	}
	if rs.Status.Replicas != 2 || rs.Status.ReadyReplicas != 1 {
		t.Errorf("replicatest replicas %d ready %d at +7s, want 2 and 1", rs.Status.Replicas, rs.Status.ReadyReplicas)
	}
	if next, ok := s.Sim().NextDue(); !ok || next.Sub(s.Sim().Clock().Start()) != 8*time.Second {
		t.Errorf("next event at %v, want +8s", next.Sub(s.Sim().Clock().Start()))
	}
	if more := s.RunToTime(7 * time.Second); len(more) != 0 {
		t.Errorf("running to the same time again took %d steps", len(more))
	}
	// Seek reproduces the state exactly: same step, same clock.
	n := len(steps)
	if err := s.Seek(0); err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(n); err != nil {
		t.Fatal(err)
	}
	if at := s.Sim().Clock().Elapsed(); at != 7*time.Second {
		t.Errorf("after replay the clock is at %v, want 7s", at)
	}
}

// ComputeAhead knows the whole run without moving: in one call or in small
// chunks, the steps are those stepping computes, and the session stays
// where it was.
func TestComputeAhead(t *testing.T) {
	stepped := loadLibrary(t, "adoption")
	for len(stepped.Advance(ByEvent, 1)) > 0 {
	}
	want := stepped.History()
	if len(want) != 36 {
		t.Fatalf("stepping took %d steps, want RunToEnd's 36 (ComputeAhead's doc example)", len(want))
	}

	whole := loadLibrary(t, "adoption")
	whole.Advance(ByEvent, 3)
	ended, err := whole.ComputeAhead(1000)
	if err != nil || !ended {
		t.Fatalf("ComputeAhead(1000) = %v, %v; want ended", ended, err)
	}
	if whole.Step() != 3 || whole.MaxStep() != len(want) {
		t.Fatalf("at step %d of %d after ComputeAhead; want step 3 of %d", whole.Step(), whole.MaxStep(), len(want))
	}

	chunks := loadLibrary(t, "adoption")
	calls := 0
	for {
		ended, err := chunks.ComputeAhead(5)
		if err != nil {
			t.Fatal(err)
		}
		calls++
		if chunks.Step() != 0 {
			t.Fatalf("call %d left the session at step %d", calls, chunks.Step())
		}
		if ended {
			break
		}
		if chunks.MaxStep() != 5*calls {
			t.Fatalf("after %d calls of 5: %d steps known", calls, chunks.MaxStep())
		}
	}
	for _, s := range []*Session{whole, chunks} {
		if err := s.Seek(len(want)); err != nil {
			t.Fatal(err)
		}
		if got := s.History(); !reflect.DeepEqual(got, want) {
			t.Fatalf("steps computed ahead differ from the steps stepped")
		}
		a, _ := json.Marshal(s.View(ViewOptions{}))
		b, _ := json.Marshal(stepped.View(ViewOptions{}))
		if string(a) != string(b) {
			t.Fatal("the view at the end differs from the stepped run's")
		}
	}
	if ended, err := whole.ComputeAhead(10); err != nil || !ended || whole.MaxStep() != len(want) {
		t.Fatalf("past the end: %v, %v, %d steps", ended, err, whole.MaxStep())
	}
}

// A pasted rollout stuck on an image that cannot be pulled stays stuck:
// the new pods wait in ImagePullBackOff, 3 of 4 stay available, and the
// progress deadline runs out (the pasted Progressing condition was last
// updated at the latest timestamp, the start of the simulation).
func TestPastedStuckRolloutStaysStuck(t *testing.T) {
	src, err := os.ReadFile("testdata/stuck-imagepull.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load("stuck-imagepull.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.RunToEnd()
	d, err := s.Sim().Server().GetDeployment("prod", "api")
	if err != nil {
		t.Fatal(err)
	}
	if d.Status.AvailableReplicas != 3 || d.Status.UpdatedReplicas != 2 {
		t.Errorf("available %d updated %d; want 3 and 2", d.Status.AvailableReplicas, d.Status.UpdatedReplicas)
	}
	var progressing string
	for _, c := range d.Status.Conditions {
		if c.Type == "Progressing" {
			progressing = string(c.Status) + "/" + c.Reason
		}
	}
	if progressing != "False/ProgressDeadlineExceeded" {
		t.Errorf("Progressing %s, want False/ProgressDeadlineExceeded", progressing)
	}
	for _, p := range s.Sim().Server().ListPods("prod", nil) {
		if p.Spec.Containers[0].Image != "registry.example.com/api:2.4.0-typo" {
			continue
		}
		if w := p.Status.ContainerStatuses[0].State.Waiting; p.Status.Phase != "Pending" || w == nil || w.Reason != "ImagePullBackOff" {
			t.Errorf("pod %s: phase %s, state %+v", p.Name, p.Status.Phase, p.Status.ContainerStatuses[0].State)
		}
	}
}
