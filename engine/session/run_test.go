package session

import (
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
