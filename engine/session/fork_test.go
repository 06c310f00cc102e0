package session

import (
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// The example in ForkAt's doc comment: a fork replays to the same state,
// keeps or drops the actions made from the fork step on, and never moves
// the session it came from.
func TestForkAt(t *testing.T) {
	s := loadLibrary(t, "max-surge-zero")
	s.Advance(ByEvent, 40)
	mustApply(t, s, scenario.Action{Type: scenario.ActionSetImage, Target: web, Image: "nginx:1.27"})
	s.Advance(ByEvent, 50)
	here := finalState(t, s)

	with, err := s.ForkAt(40, true)
	if err != nil {
		t.Fatal(err)
	}
	without, err := s.ForkAt(40, false)
	if err != nil {
		t.Fatal(err)
	}
	if with.Step() != 40 || without.Step() != 40 || s.Step() != 90 || finalState(t, s) != here {
		t.Fatalf("steps %d %d, session at %d", with.Step(), without.Step(), s.Step())
	}
	// Until the next step both stand before the image change.
	image := func(f *Session) string {
		d, err := f.Sim().Server().GetDeployment("default", "web")
		if err != nil {
			t.Fatal(err)
		}
		return d.Spec.Template.Spec.Containers[0].Image
	}
	if image(with) != "nginx:1.25" || image(without) != "nginx:1.25" {
		t.Errorf("images at the fork: %s %s", image(with), image(without))
	}
	with.Advance(ByEvent, 50)
	if got := finalState(t, with); got != here {
		t.Error("the fork with the later actions does not replay the session's run")
	}
	without.Advance(ByEvent, 50)
	// The file's own timeline still runs (nginx:1.26 once rolled out); the
	// user's nginx:1.27 does not.
	if image(without) == "nginx:1.27" {
		t.Errorf("the fork without later actions set the image: %s", image(without))
	}
	if _, err := s.ForkAt(100000, true); err == nil {
		t.Error("a fork past the end of the run: no error")
	}
}

// A fork starts from its parent's last checkpoint at or before the fork
// step (taking over the checkpoints up to there) instead of replaying
// from step 0.
func TestForkStartsFromACheckpoint(t *testing.T) {
	s, err := Load("b.yaml", benchScenario(150), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.cps.every = 40
	s.RunToEnd()
	n := s.MaxStep() - 7
	f, err := s.ForkAt(n, true)
	if err != nil {
		t.Fatal(err)
	}
	c := s.cps.nearest(n)
	last := f.cps.list[len(f.cps.list)-1]
	if last.sim != c.sim || !last.foreign || c.sim.Step() <= n-s.cps.every || f.Step() != n {
		t.Fatalf("fork at %d: its last checkpoint is at %d (parent's nearest %d), foreign %v", n, last.sim.Step(), c.sim.Step(), last.foreign)
	}
	if finalState(t, f) != finalState(t, mustSeek(t, s, n)) {
		t.Fatal("the fork is not in the state of its parent at the fork step")
	}
}

func mustSeek(t *testing.T, s *Session, n int) *Session {
	t.Helper()
	if err := s.Seek(n); err != nil {
		t.Fatal(err)
	}
	return s
}
