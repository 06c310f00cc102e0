package session

import (
	"reflect"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// TestPodsTokenNamesThePods checks View.PodsToken: two views of a session
// with the same token list the same pods, across every step of a rolling
// update, rewinds, and a user action that rewrites what follows it; and
// ViewOptions.PodsSince leaves the list out exactly when the token is the
// one given.
func TestPodsTokenNamesThePods(t *testing.T) {
	s := load(t, "rolling-update-10-3-2")
	seen := map[string][]PodView{}
	same, views := 0, 0
	check := func(since string) string {
		t.Helper()
		v := s.View(ViewOptions{MaxPods: 8, PodsSince: since})
		full := s.View(ViewOptions{MaxPods: 8})
		views++
		if v.PodsToken != full.PodsToken {
			t.Fatalf("step %d: token %q with PodsSince, %q without", s.Step(), v.PodsToken, full.PodsToken)
		}
		if v.PodsSame != (since == full.PodsToken) {
			t.Fatalf("step %d: PodsSame %v for PodsSince %q and token %q", s.Step(), v.PodsSame, since, full.PodsToken)
		}
		if v.PodsSame {
			same++
			if len(v.Pods) != 0 {
				t.Fatalf("step %d: PodsSame with %d pods listed", s.Step(), len(v.Pods))
			}
		} else if !reflect.DeepEqual(v.Pods, full.Pods) {
			t.Fatalf("step %d: pods differ with PodsSince %q", s.Step(), since)
		}
		if old, ok := seen[full.PodsToken]; ok && !reflect.DeepEqual(old, full.Pods) {
			t.Fatalf("step %d: token %q named other pods before:\n%+v\nnow:\n%+v", s.Step(), full.PodsToken, old, full.Pods)
		}
		seen[full.PodsToken] = full.Pods
		return full.PodsToken
	}
	tok := check("")
	for len(s.Advance(ByEvent, 1)) > 0 {
		tok = check(tok)
	}
	end := s.Step()
	r := rng.New(7).Stream("seeks")
	for range 60 {
		if err := s.Seek(r.Intn(end + 1)); err != nil {
			t.Fatal(err)
		}
		tok = check(tok)
	}
	// A scale-up at step 20 rewrites the run after it: the steps after it
	// reuse the old run's resource versions for other objects.
	if err := s.Seek(20); err != nil {
		t.Fatal(err)
	}
	tok = check(tok)
	scale := scenario.Action{Type: scenario.ActionScale, Replicas: 13, Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}}
	if _, err := s.Apply(scale); err != nil {
		t.Fatal(err)
	}
	tok = check(tok)
	for len(s.Advance(ByEvent, 1)) > 0 {
		tok = check(tok)
	}
	for range 30 {
		if err := s.Seek(r.Intn(s.MaxStep() + 1)); err != nil {
			t.Fatal(err)
		}
		tok = check(tok)
	}
	// Most steps write no pod: the test is worth something only if it saw some.
	if same < views/4 {
		t.Fatalf("only %d of %d views had the pods of the view before", same, views)
	}
	t.Logf("%d of %d views left the pods out", same, views)
}
