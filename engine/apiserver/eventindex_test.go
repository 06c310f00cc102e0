package apiserver

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestEventIndexAcrossRestores drives the event index through the moves a
// session makes (restores back and forward, a replay that stores the same
// events again, a run that goes another way, a server that restores
// another's checkpoint) and checks after each that every held event is
// found by its name at its place, that names not held are not found, and
// that a create refuses a held name and takes any other.
func TestEventIndexAcrossRestores(t *testing.T) {
	e := newTestEnv()
	create := func(srv *Server, name string) error {
		_, err := srv.CreateEvent("test", &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name}, Reason: name})
		return err
	}
	createAll := func(srv *Server, prefix string, from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			if err := create(srv, fmt.Sprintf("%s%d", prefix, i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// check compares every lookup with a scan of the events held.
	check := func(srv *Server, what string, absent ...string) {
		t.Helper()
		for i := range srv.events.len() {
			name := srv.events.at(i).name
			got, err := srv.Get(Events, "default", name)
			if err != nil {
				t.Fatalf("%s: event %d (%s) not found: %v", what, i, name, err)
			}
			if r := got.(*corev1.Event).Reason; r != name {
				t.Fatalf("%s: %s found as the event of reason %s", what, name, r)
			}
		}
		for _, name := range absent {
			if _, err := srv.Get(Events, "default", name); !apierrors.IsNotFound(err) {
				t.Fatalf("%s: %s is not held, got %v", what, name, err)
			}
		}
	}
	total := 2*eventChunk + 40
	createAll(e.srv, "e", 0, 300)
	cp300 := e.srv.Checkpoint()
	createAll(e.srv, "e", 300, total)
	cpEnd := e.srv.Checkpoint()
	check(e.srv, "first run", "x300")

	e.srv.Restore(cp300)
	check(e.srv, "back to 300", "e300", fmt.Sprint("e", total-1))
	if e.srv.eventKeys.ahead == nil {
		t.Fatal("a restore back drops the log the index was built on")
	}
	e.srv.Restore(cpEnd)
	check(e.srv, "forward to the end again", "x300")
	if e.srv.eventKeys.ahead != nil || e.srv.eventKeys.n != total {
		t.Fatalf("forward to the end: ahead kept or %d indexed, want %d", e.srv.eventKeys.n, total)
	}

	// A replay stores the same events again: found indexed.
	e.srv.Restore(cp300)
	createAll(e.srv, "e", 300, 350)
	check(e.srv, "replayed to 350", "e350")
	if e.srv.eventKeys.ahead == nil {
		t.Fatal("a replay of the same events drops ahead")
	}
	// The run goes another way: x350 where e350 was.
	createAll(e.srv, "x", 350, 360)
	if e.srv.eventKeys.ahead != nil {
		t.Fatal("another event than ahead's keeps ahead")
	}
	check(e.srv, "another way", "e350", "e400", "x360")
	// A name of the old future (a stale entry) is free; a held one is not.
	if err := create(e.srv, "e400"); err != nil {
		t.Fatalf("e400 is not held: %v", err)
	}
	if err := create(e.srv, "e10"); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("e10 is held: %v", err)
	}
	if err := create(e.srv, "x351"); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("x351 is held: %v", err)
	}
	createAll(e.srv, "y", 0, eventChunk)
	cpOther := e.srv.Checkpoint()
	check(e.srv, "the other run", "e401", "e599", "y256")

	// Back before the turn and forward again along the new run.
	e.srv.Restore(cp300)
	check(e.srv, "back before the turn", "x350", "e350")
	e.srv.Restore(cpOther)
	check(e.srv, "forward along the other run", "e401", "e599")
	if err := create(e.srv, "y5"); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("y5 is held: %v", err)
	}

	// Another server restores this one's checkpoint: it indexes the
	// events when first asked.
	other := newTestEnv()
	other.srv.Restore(cpOther)
	check(other.srv, "another server", "e401")
	if err := create(other.srv, "x355"); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("x355 is held on the other server: %v", err)
	}
	createAll(other.srv, "z", 0, 3)
	check(other.srv, "another server, three more", "z3")
}

// TestEventIndexForeignCheckpointAhead: a server that went back keeps its
// old future as ahead; a checkpoint of another server's run, equal only up
// to where this one now is, must not be taken for that future (a found
// name reported free, then stored twice).
func TestEventIndexForeignCheckpointAhead(t *testing.T) {
	s := newTestEnv().srv
	create := func(srv *Server, name string) error {
		_, err := srv.CreateEvent("test", &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name}})
		return err
	}
	for i := range 20 {
		if err := create(s, fmt.Sprint("a", i)); err != nil {
			t.Fatal(err)
		}
	}
	cp10 := func() *Checkpoint { // a fresh server's run: a0..a9, then b10..b29
		f := newTestEnv().srv
		for i := range 10 {
			if err := create(f, fmt.Sprint("a", i)); err != nil {
				t.Fatal(err)
			}
		}
		return f.Checkpoint()
	}()
	f := newTestEnv().srv
	f.Restore(cp10)
	for i := 10; i < 30; i++ {
		if err := create(f, fmt.Sprint("b", i)); err != nil {
			t.Fatal(err)
		}
	}
	cpF := f.Checkpoint()
	s.Restore(cp10)
	s.Restore(cpF)
	if _, err := s.Get(Events, "default", "b15"); err != nil {
		t.Fatalf("b15 is held: %v", err)
	}
	if err := create(s, "b15"); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("b15 stored twice: %v", err)
	}
	if _, err := s.Get(Events, "default", "a15"); !apierrors.IsNotFound(err) {
		t.Fatalf("a15 is not held: %v", err)
	}
}

// TestEventIndexRandomAgainstAScan drives servers through random creates
// (some names repeated, some runs going another way) and restores to
// checkpoints of the same lineage, comparing every answer with a scan of
// the events held, and checks that the map never holds more keys than the
// log it was built on.
func TestEventIndexRandomAgainstAScan(t *testing.T) {
	for seed := range int64(300) {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		s := newTestEnv().srv
		var cps []*Checkpoint
		for op := range 200 {
			switch k := r.IntN(10); {
			case k < 6:
				// Names from a small pool: duplicates and names of
				// abandoned futures come up.
				name := fmt.Sprint("e", r.IntN(60))
				_, scanHeld := scanEvents(s, name)
				_, err := s.CreateEvent("test", &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name}})
				if scanHeld != apierrors.IsAlreadyExists(err) || (!scanHeld && err != nil) {
					t.Fatalf("seed %d op %d: create %s: held %v, got %v", seed, op, name, scanHeld, err)
				}
			case k < 8:
				cps = append(cps, s.Checkpoint())
			default:
				if len(cps) > 0 {
					// Restores only to checkpoints of this server: they
					// agree with what it holds up to the shorter, since
					// checkpoints after a restored one are dropped.
					i := r.IntN(len(cps))
					s.Restore(cps[i])
					cps = cps[:i+1]
				}
			}
			for probe := range 60 {
				name := fmt.Sprint("e", probe)
				want, held := scanEvents(s, name)
				got, ok := s.eventKeys.find(&s.events, eventKey{"default", name})
				if ok != held || (ok && got != want) {
					t.Fatalf("seed %d op %d: find %s = %d, %v; scan says %d, %v", seed, op, name, got, ok, want, held)
				}
			}
			if limit := max(s.events.len(), s.eventKeys.n); len(s.eventKeys.at) > limit {
				t.Fatalf("seed %d op %d: %d keys indexed for a log of %d", seed, op, len(s.eventKeys.at), limit)
			}
		}
	}
}

// scanEvents finds the held event named name by reading them all.
func scanEvents(s *Server, name string) (int, bool) {
	for i := range s.events.len() {
		if s.events.at(i).key() == (eventKey{"default", name}) {
			return i, true
		}
	}
	return 0, false
}
