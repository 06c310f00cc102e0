package session

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// RefineCheckpoints, called until it has nothing more to gain, lowers the
// most trace records a seek replays, keeps the checkpoints well formed and
// within the budget and the count, and leaves the session as it was: same
// step, view, trace, samples and cursors. Seeks through the new
// checkpoints equal a replay from step 0.
//
// The run is computed within a small budget that is then doubled, so that
// refining has room for more checkpoints: within the budget the run was
// computed in, the layout the run leaves (dropLeastUseful weighing each
// checkpoint by what dropping it frees) left nothing to gain here.
func TestRefineCheckpoints(t *testing.T) {
	s := loadBench(t, benchScenario(2000))
	s.SetCheckpointBudget(30_000_000)
	s.RunToEnd()
	s.SetCheckpointBudget(60_000_000)
	at := s.MaxStep() / 3
	if err := s.Seek(at); err != nil {
		t.Fatal(err)
	}
	view, trace, samples := viewJSON(t, s), traceJSON(t, s), samplesJSON(t, s)
	cursors := [2]int{s.timeline.next, s.nextUser}
	armed, scratch, history := s.timeline.armed, s.cps.scratch, fmt.Sprint(s.History())
	before, count := s.maxReplay(), len(s.cps.list)
	calls := 0
	for s.RefineCheckpoints() {
		if calls++; calls > 500 {
			t.Fatal("RefineCheckpoints never settles")
		}
		if !s.cps.wellFormed() || s.cps.spacedBytes() > s.cps.budget || len(s.cps.list) > s.cps.max {
			t.Fatalf("after %d calls: %d checkpoints, %d bytes of %d, well formed %v", calls, len(s.cps.list), s.cps.spacedBytes(), s.cps.budget, s.cps.wellFormed())
		}
	}
	after := s.maxReplay()
	t.Logf("%d refinements: largest replay %d -> %d records, %d -> %d checkpoints", calls, before, after, count, len(s.cps.list))
	if calls == 0 || after >= before {
		t.Fatalf("%d refinements: the largest replay went from %d to %d records", calls, before, after)
	}
	if s.RefineCheckpoints() {
		t.Fatal("RefineCheckpoints did more after reporting it was done")
	}
	if s.Step() != at || viewJSON(t, s) != view || traceJSON(t, s) != trace || samplesJSON(t, s) != samples || cursors != [2]int{s.timeline.next, s.nextUser} ||
		!reflect.DeepEqual(armed, s.timeline.armed) || scratch != s.cps.scratch || history != fmt.Sprint(s.History()) {
		t.Fatalf("refining moved the session: at step %d (was %d)", s.Step(), at)
	}
	ref := &reference{t: t, src: benchScenario(2000), seed: 3}
	for _, n := range []int{s.cps.list[1].sim.Step() + 1, s.MaxStep() / 2, s.MaxStep() - 1, at} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		same(t, "seek after refining", s, ref.at(n, true))
	}
	// The run goes on after the refined layout: a step back at the end
	// and the checkpoints still hold.
	if err := s.Seek(s.MaxStep()); err != nil {
		t.Fatal(err)
	}
	same(t, "the end after refining", s, ref.at(s.MaxStep(), true))
}

// Refining also works on checkpoints a session inherited (Restore rebuilds
// the simulation and takes the old one's checkpoints as foreign ones, as
// the bridge does after a panic) and on a run stopped by its step limit:
// the session stays where it is, and seeks afterwards equal a replay from
// step 0.
func TestRefineInheritedAndStoppedRuns(t *testing.T) {
	limited := strings.Replace(string(benchScenario(1000)), "limits: {maxPods: 15000}", "limits: {maxPods: 15000, maxSteps: 15000}", 1)
	cases := []struct {
		name    string
		src     []byte
		inherit bool
	}{
		{"inherited checkpoints", benchScenario(1000), true},
		{"stopped by maxSteps", []byte(limited), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := loadBench(t, c.src)
			s.SetCheckpointBudget(8_000_000)
			s.RunToEnd()
			at := s.MaxStep() / 2
			if c.inherit {
				if err := s.Restore(at); err != nil {
					t.Fatal(err)
				}
				if !s.cps.list[1].foreign {
					t.Fatal("Restore did not inherit the checkpoints")
				}
			} else {
				if s.Sim().Err() == nil {
					t.Fatal("the run was not stopped by its step limit")
				}
				if err := s.Seek(at); err != nil {
					t.Fatal(err)
				}
			}
			s.SetCheckpointBudget(16_000_000) // room to refine (see TestRefineCheckpoints)
			view, trace := viewJSON(t, s), traceJSON(t, s)
			before, calls := s.maxReplay(), 0
			for s.RefineCheckpoints() {
				calls++
			}
			if calls == 0 || s.maxReplay() >= before {
				t.Fatalf("%d refinements: the largest replay went from %d to %d records", calls, before, s.maxReplay())
			}
			if s.Step() != at || viewJSON(t, s) != view || traceJSON(t, s) != trace {
				t.Fatalf("refining moved the session: at step %d (was %d)", s.Step(), at)
			}
			ref := &reference{t: t, src: c.src, seed: 3}
			for _, n := range []int{s.MaxStep() / 3, s.MaxStep() - 1, s.MaxStep()} {
				if err := s.Seek(n); err != nil {
					t.Fatal(err)
				}
				same(t, fmt.Sprintf("seek to %d after refining", n), s, ref.at(n, true))
			}
		})
	}
}

// maxReplay is the most trace records a seek replays from a spaced
// checkpoint other than the last.
func (s *Session) maxReplay() int {
	_, r := s.largestReplay()
	return r
}

// The checkpoints refining takes share the first pass's object versions
// (Session.replayToward): putting one in a gap leaves the estimate of the
// first-pass checkpoint after it no higher than it was (it holds nothing
// the new one holds a second copy of). Without the sharing, every object
// the replay wrote and the next checkpoint still holds was counted again.
func TestRefinedCheckpointsShareTheFirstPassVersions(t *testing.T) {
	s := loadBench(t, benchScenario(2000))
	s.SetCheckpointBudget(30_000_000)
	s.RunToEnd()
	s.SetCheckpointBudget(60_000_000)
	first := map[int]int{} // step -> bytes, the checkpoints of the first pass
	for _, c := range s.cps.list {
		first[c.sim.Step()] = c.bytes
	}
	for s.RefineCheckpoints() {
	}
	checked := 0
	for i := 1; i < len(s.cps.list); i++ {
		prev, c := s.cps.list[i-1], s.cps.list[i]
		was, original := first[c.sim.Step()]
		if _, prevOriginal := first[prev.sim.Step()]; prevOriginal || !original {
			continue
		}
		checked++
		if c.bytes > was {
			t.Errorf("checkpoint at step %d: estimated %d bytes after the one refining put before it, %d before", c.sim.Step(), c.bytes, was)
		}
	}
	if checked == 0 {
		t.Fatal("refining put no checkpoint before one of the first pass: the test checks nothing")
	}
}
