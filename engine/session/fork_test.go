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
