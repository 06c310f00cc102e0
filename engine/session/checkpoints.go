package session

import "github.com/rolloutlab/rolloutlab/engine/sim"

// Checkpoint spacing. A checkpoint is taken after every step that is a
// multiple of the spacing, which starts at minCheckpointEvery; when more
// than maxCheckpoints are kept, or their estimated size passes
// maxCheckpointBytes, every other one is dropped and the spacing doubles.
// A seek therefore restores the nearest checkpoint at or before its target
// and replays at most one spacing of steps, and the memory held stays
// within the budget (stored objects and trace records are shared, see
// sim.Checkpoint; what a checkpoint copies grows with the objects stored).
const (
	minCheckpointEvery = 128
	maxCheckpoints     = 64
	maxCheckpointBytes = 128 << 20
)

// checkpoint is the session's state after one step, before the user
// actions recorded at that step: the simulation and the scenario timeline's
// cursor (the user-action cursor follows from the step).
type checkpoint struct {
	sim          *sim.Checkpoint
	timelineNext int
}

// checkpoints are the rewind points of the current run, sorted by step;
// the first is at step 0. Invariant: every checkpoint is a state of the
// run the session would compute now (a user action drops those after it).
type checkpoints struct {
	list []checkpoint
	// every is the current spacing in steps.
	every int
	// max is the most checkpoints kept (maxCheckpoints; tests lower it).
	max int
	// bytes is the estimated size of list (sim.Checkpoint.ApproxBytes).
	bytes int
}

// CheckpointStats describes the rewind points kept: how many, their
// spacing in steps, and the steps they were taken at.
type CheckpointStats struct {
	Count int   `json:"count"`
	Every int   `json:"every"`
	Steps []int `json:"steps"`
	// ApproxBytes estimates the memory they hold.
	ApproxBytes int `json:"approxBytes"`
}

// CheckpointStats reports the rewind points kept.
func (s *Session) CheckpointStats() CheckpointStats {
	st := CheckpointStats{Count: len(s.cps.list), Every: s.cps.every, ApproxBytes: s.cps.bytes}
	for _, c := range s.cps.list {
		st.Steps = append(st.Steps, c.sim.Step())
	}
	return st
}

// resetCheckpoints drops every checkpoint and takes the first, at step 0.
func (s *Session) resetCheckpoints() {
	s.cps = checkpoints{every: minCheckpointEvery, max: maxCheckpoints}
	s.takeCheckpoint()
}

// takeCheckpoint saves the current state.
func (s *Session) takeCheckpoint() {
	c := checkpoint{sim: s.sim.Checkpoint(), timelineNext: s.timeline.next}
	s.cps.list = append(s.cps.list, c)
	s.cps.bytes += c.sim.ApproxBytes()
	for len(s.cps.list) > s.cps.max || (s.cps.bytes > maxCheckpointBytes && len(s.cps.list) > 2) {
		s.thinCheckpoints()
	}
}

// thinCheckpoints doubles the spacing and drops the checkpoints off it.
func (s *Session) thinCheckpoints() {
	s.cps.every *= 2
	kept := s.cps.list[:0]
	for _, c := range s.cps.list {
		if c.sim.Step()%s.cps.every == 0 {
			kept = append(kept, c)
		} else {
			s.cps.bytes -= c.sim.ApproxBytes()
		}
	}
	clear(s.cps.list[len(kept):])
	s.cps.list = kept
}

// checkpointAfterStep takes a checkpoint when the step just taken is on the
// spacing and past the last one kept.
func (s *Session) checkpointAfterStep() {
	n := s.sim.Steps()
	if n%s.cps.every == 0 && n > s.cps.list[len(s.cps.list)-1].sim.Step() {
		s.takeCheckpoint()
	}
}

// dropCheckpointsAfter forgets the checkpoints taken after step n: the
// future they saved is being rewritten.
func (s *Session) dropCheckpointsAfter(n int) {
	i := len(s.cps.list)
	for i > 1 && s.cps.list[i-1].sim.Step() > n {
		i--
	}
	for _, c := range s.cps.list[i:] {
		s.cps.bytes -= c.sim.ApproxBytes()
	}
	clear(s.cps.list[i:])
	s.cps.list = s.cps.list[:i]
}

// nearestCheckpoint returns the last checkpoint at or before step n.
func (s *Session) nearestCheckpoint(n int) checkpoint {
	best := s.cps.list[0]
	for _, c := range s.cps.list[1:] {
		if c.sim.Step() > n {
			break
		}
		best = c
	}
	return best
}

// restore puts the session in the state of c: the simulation, the
// timeline's cursor and the user actions still to run.
func (s *Session) restore(c checkpoint) {
	s.sim.Restore(c.sim)
	s.timeline.next = c.timelineNext
	at := c.sim.Step()
	s.nextUser = 0
	for s.nextUser < len(s.user) && s.user[s.nextUser].AtStep < at {
		s.nextUser++
	}
}
