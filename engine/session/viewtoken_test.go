package session

import (
	"errors"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// tokenCheck views a session after each move, with and without
// PodsSince, and fails when two views of it with the same PodsToken list
// different pods, or when PodsSince leaves the pods out though the token
// differs (or keeps them though it is the same).
type tokenCheck struct {
	t       *testing.T
	s       *Session
	maxPods int
	seen    map[string][]PodView
	last    string
	views   int
	same    int
}

func newTokenCheck(t *testing.T, s *Session, maxPods int) *tokenCheck {
	c := &tokenCheck{t: t, s: s, maxPods: maxPods, seen: map[string][]PodView{}}
	c.check()
	return c
}

func (c *tokenCheck) check() {
	c.t.Helper()
	s := c.s
	v := s.View(ViewOptions{MaxPods: c.maxPods, PodsSince: c.last})
	full := s.View(ViewOptions{MaxPods: c.maxPods})
	c.views++
	if v.PodsToken != full.PodsToken {
		c.t.Fatalf("step %d: token %q with PodsSince, %q without", s.Step(), v.PodsToken, full.PodsToken)
	}
	if v.PodsSame != (c.last == full.PodsToken) {
		c.t.Fatalf("step %d: PodsSame %v for PodsSince %q and token %q", s.Step(), v.PodsSame, c.last, full.PodsToken)
	}
	if v.PodsSame {
		c.same++
		if v.Pods != nil {
			c.t.Fatalf("step %d: PodsSame with %d pods listed", s.Step(), len(v.Pods))
		}
	} else if !reflect.DeepEqual(v.Pods, full.Pods) {
		c.t.Fatalf("step %d: pods differ with PodsSince %q", s.Step(), c.last)
	}
	if old, ok := c.seen[full.PodsToken]; ok && !reflect.DeepEqual(old, full.Pods) {
		c.t.Fatalf("step %d: token %q named other pods before:\n%+v\nnow:\n%+v", s.Step(), full.PodsToken, old, full.Pods)
	}
	c.seen[full.PodsToken] = full.Pods
	c.last = full.PodsToken
}

// toEnd steps to the end of the run, checking every step.
func (c *tokenCheck) toEnd() {
	c.t.Helper()
	for len(c.s.Advance(ByEvent, 1)) > 0 {
		c.check()
	}
}

// seeks seeks n random steps of the run computed, checking each.
func (c *tokenCheck) seeks(r *rng.Stream, n int) {
	c.t.Helper()
	for range n {
		if err := c.s.Seek(r.Intn(c.s.MaxStep() + 1)); err != nil {
			c.t.Fatal(err)
		}
		c.check()
	}
}

// TestPodsTokenNamesThePods checks View.PodsToken: two views of a session
// with the same token list the same pods, across every step of a run,
// rewinds, computing ahead, a user action that rewrites what follows it and
// one that panics and is undone; and ViewOptions.PodsSince leaves the list
// out exactly when the token is the one given. The scenarios bring
// availability that changes with time alone (min-ready-seconds), a node
// that fails and its pods evicted (node-failure) and a cascading delete
// (rs-delete-foreground).
func TestPodsTokenNamesThePods(t *testing.T) {
	for _, tc := range []struct {
		id      string
		maxPods int
	}{
		{"rolling-update-10-3-2", 8},
		{"rolling-update-10-3-2", 0},
		{"min-ready-seconds", 0},
		{"node-failure", 0},
		{"rs-delete-foreground", 0},
	} {
		t.Run(tc.id, func(t *testing.T) {
			s := load(t, tc.id)
			c := newTokenCheck(t, s, tc.maxPods)
			c.toEnd()
			r := rng.New(7).Stream("seeks")
			c.seeks(r, 60)
			// Computing ahead and back, then a view: the same run.
			if err := s.Seek(s.MaxStep() / 3); err != nil {
				t.Fatal(err)
			}
			c.check()
			if _, err := s.ComputeAhead(50); err != nil {
				t.Fatal(err)
			}
			c.check()
			// A scale-up a third of the way rewrites the run after it: the
			// steps after it reuse the old run's resource versions for
			// other objects.
			target, first := scaleTarget(t, s)
			scale := scenario.Action{Type: scenario.ActionScale, Replicas: 13, Target: target}
			if _, err := s.Apply(scale); err != nil {
				t.Fatal(err)
			}
			c.check()
			c.toEnd()
			c.seeks(r, 30)
			// An apply that panics half-way (its second object is a typed
			// nil) is undone.
			bad := scenario.Action{Type: scenario.ActionApply, Namespace: "default", Manifest: []scenario.Object{{Obj: first}, {Obj: (*appsv1.Deployment)(nil)}}}
			var pe *ActionPanicError
			if _, err := s.Apply(bad); !errors.As(err, &pe) {
				t.Fatalf("the bad apply: %v, want an ActionPanicError", err)
			}
			c.check()
			c.toEnd()
			// Most steps write no pod: the test is worth something only if
			// it saw some.
			if c.same < c.views/5 {
				t.Fatalf("only %d of %d views had the pods of the view before", c.same, c.views)
			}
			t.Logf("%d of %d views left the pods out", c.same, c.views)
		})
	}
}

// scaleTarget returns the session's first Deployment, or else its first
// ReplicaSet, as an action's target and as a copy to apply again.
func scaleTarget(t *testing.T, s *Session) (scenario.Ref, runtime.Object) {
	t.Helper()
	srv := s.Sim().Server()
	if ds := srv.ListDeployments("", nil); len(ds) > 0 {
		d := ds[0].DeepCopy()
		d.ResourceVersion, d.UID = "", ""
		return scenario.Ref{Kind: scenario.KindDeployment, Name: d.Name}, d
	}
	rss := srv.ListReplicaSets("", nil)
	if len(rss) == 0 {
		t.Fatal("no Deployment nor ReplicaSet to scale")
	}
	rs := rss[0].DeepCopy()
	rs.ResourceVersion, rs.UID = "", ""
	return scenario.Ref{Kind: scenario.KindReplicaSet, Name: rs.Name}, rs
}
