package apiserver

import (
	"strings"
	"testing"
)

// A replay toward a later checkpoint stores that checkpoint's versions of
// the writes it makes again, and only those: a write the checkpoint does
// not hold (replaced again before it was taken) keeps its own copy, and
// once ReplayToward(nil) is called nothing is shared.
func TestReplayTowardSharesTheCheckpointsVersions(t *testing.T) {
	env := newTestEnv()
	s, names := env.srv, env.names
	must := mustWrite(t)
	writes := func() {
		for _, name := range []string{"a", "b"} {
			must(s.CreatePod("kubectl", testPod("default", name, nil)))
		}
		must(s.BindPod("scheduler", "default", "a", "n1"))
		must(s.BindPod("scheduler", "default", "b", "n1"))
		p, _ := s.GetPod("default", "b")
		p = p.DeepCopy()
		p.Labels = map[string]string{"x": "1"}
		must(s.UpdatePod("kubectl", p))
	}
	start, startNames := s.Checkpoint(), names.Checkpoint()
	writes()
	end := s.Checkpoint()
	firstA, _ := s.GetPod("default", "a")
	firstB, _ := s.GetPod("default", "b")

	s.Restore(start)
	names.Restore(startNames) // the simulation restores its streams with the server
	s.ReplayToward(end)
	writes()
	s.ReplayToward(nil)
	a, _ := s.GetPod("default", "a")
	b, _ := s.GetPod("default", "b")
	if a != firstA || b != firstB {
		t.Fatalf("the replay stored its own copies (a shared %v, b shared %v)", a == firstA, b == firstB)
	}

	s.Restore(start)
	names.Restore(startNames)
	writes()
	if a, _ := s.GetPod("default", "a"); a == firstA {
		t.Fatal("a write shared a version with no replay under way")
	}
}

// With VerifyReplayedVersions, a write that is not the first pass's (the
// run left its path and ReplayToward was not stopped) panics instead of
// storing the other version.
func TestReplayTowardVerifiesWhatItShares(t *testing.T) {
	defer func(v bool) { VerifyReplayedVersions = v }(VerifyReplayedVersions)
	VerifyReplayedVersions = true
	env := newTestEnv()
	s, names := env.srv, env.names
	must := mustWrite(t)
	start, startNames := s.Checkpoint(), names.Checkpoint()
	must(s.CreatePod("kubectl", testPod("default", "a", map[string]string{"v": "1"})))
	end := s.Checkpoint()
	s.Restore(start)
	names.Restore(startNames)
	s.ReplayToward(end)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "differs from the first pass's") {
			t.Fatalf("no panic for a different write with the same resourceVersion: %v", r)
		}
	}()
	_, _ = s.CreatePod("kubectl", testPod("default", "a", map[string]string{"v": "2"}))
}
