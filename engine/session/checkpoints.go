package session

import "github.com/rolloutlab/rolloutlab/engine/sim"

// Checkpoint spacing. A checkpoint is taken once the run is a spacing of
// steps past the last one, or sooner when the steps since have written as
// many trace records as a spacing of the run's average steps (see
// checkpointAfterStep). The spacing starts at minCheckpointEvery. When
// more than maxCheckpoints are kept or their estimated size passes
// maxCheckpointBytes, checkpoints are dropped one at a time (see
// dropLeastUseful) until the list fits; the spacing then grows to the
// mean gap between the checkpoints kept (rounded up to a multiple of
// minCheckpointEvery), so new checkpoints come no more often than the kept
// ones lie apart, and no less: the last gap, which a step back at the end
// replays, is no longer than the others on average. The spacing also
// widens when the cluster is so large that checkpoints would slow the run
// down: the spacing is kept at least stepsPerObject steps per stored
// object. A seek restores the nearest checkpoint at or before its target
// and replays the steps from there: at most the gap between two
// checkpoints kept, or, past the last one, less than the spacing. The
// memory the spaced checkpoints hold stays within the budget, with one
// scratch checkpoint on top (stored objects and trace records are shared,
// and a checkpoint shares the saved states and the chunks of the maps that
// did not change with the one before it, see sim.Checkpoint; what it holds
// grows with the objects changed since the checkpoint before, whose old
// versions it keeps alive, and a little with the objects stored).
//
// Measured on the benchmark's run of 7,800 replicas created and rolled out
// (132,882 steps, 337,466 trace records; BenchmarkSeek, BenchmarkSeekWorst):
// when a checkpoint copied its components' maps whole (about 400 bytes per
// stored object), 200 MB held 28 checkpoints, and a seek to a uniformly
// drawn step replayed 7,185 trace records on average (14.2 ms native), the
// end of the largest gap 21,528 (73 ms). With the maps copy-on-write by
// chunk (cow.Map, and the informers' sets by chunk too) a checkpoint costs
// about 46 bytes per stored object beyond the versions it holds, and taking
// one 0.2 ms instead of 2; the same budget holds 74, 2,317 records on
// average (6.0 ms), 6,950 at the end of the largest gap (10.9 ms on average
// over the largest gaps). stepsPerObject went from 0.2 to 0.1 with that:
// at 0.2 the records rule could not split the run's heavy stretch (pods
// created by the hundred), whose gaps stayed the largest (10,767 records);
// at 0.05 no gap was smaller and the run took longer.
//
// Stepping back repeatedly is the usual way to rewind, so a step back (a
// seek at most scratchGap steps behind the current step) that replays a
// long way also keeps a scratch checkpoint scratchGap steps before its
// target: the next presses restore it instead of replaying the whole
// spacing again. A run being played keeps that scratch checkpoint
// trailing its head instead, for the first press after a pause (see
// trailHead).
//
// The budget: the estimate (sim.Checkpoint.ApproxBytes) is calibrated on
// the heap the checkpoints actually hold, old object versions included
// (see sim's approxBytesPerObject). On the page the Worker's heap after a
// 100k-step run is then about 330 MB: the checkpoints, the live cluster
// and the encoded trace. maxCheckpoints (128) is above what the budget
// holds for a large run; it bounds the work of dropLeastUseful for a long
// run of a small cluster.
const (
	minCheckpointEvery = 128
	maxCheckpoints     = 128
	maxCheckpointBytes = 200_000_000
	stepsPerObject     = 0.1
	scratchGap         = 64
	minTrailEvery      = 256
)

// checkpoint is the session's state after one step, before the user
// actions recorded at that step: the simulation and the scenario timeline's
// cursor (the user-action cursor follows from the step).
type checkpoint struct {
	sim          *sim.Checkpoint
	timelineNext int
	// armed is the timeline's pending action in sim (timeline.armed).
	armed *sim.Action
	// foreign marks a checkpoint another simulation took (a fork's
	// parent's, or the one a Restore replaced): its armed action belongs
	// to that simulation's timeline and is rebound on restore.
	foreign bool
	// bytes estimates the memory it holds beyond the checkpoint before
	// it (it shares the states that did not change with that one):
	// sim.Checkpoint.ApproxBytes when taken, ApproxBytesAfter the one
	// before once those between are dropped.
	bytes int
}

// checkpoints are the rewind points of the current run. Invariant: every
// checkpoint is a state of the run the session would compute now (a user
// action drops those after it).
type checkpoints struct {
	// list is sorted by step; the first is at step 0.
	list []checkpoint
	// scratch, when set, is the checkpoint the last long step back took
	// near its target, or the one trailing the head of a run being played
	// (trailHead); it is not in list, not on the spacing, and not bound by
	// the budget (spacedBytes).
	scratch *checkpoint
	// every is the current spacing in steps.
	every int
	// max is the most checkpoints kept in list and gap the scratch
	// checkpoint's distance before a seek's target (maxCheckpoints and
	// scratchGap; tests lower them).
	max, gap int
	// bytes is the estimated size of list and scratch (the sum of their
	// bytes fields); budget is what the list's may reach (spacedBytes;
	// the scratch checkpoint comes on top), maxCheckpointBytes unless
	// SetCheckpointBudget changed it.
	bytes, budget int
	// refined is the list RefineCheckpoints last found nothing to gain
	// in (zero: none yet).
	refined refineSignature
}

// CheckpointStats describes the rewind points kept: how many (the scratch
// one included), their spacing in steps, the steps they were taken at (the
// spaced ones in order, then the scratch one, if any), the trace records
// written up to each, and an estimate of the memory they hold. A seek
// replays from the last checkpoint at or before its target, so the gap
// between two checkpoints that replays the most records bounds what any
// seek replays.
type CheckpointStats struct {
	Count int   `json:"count"`
	Every int   `json:"every"`
	Steps []int `json:"steps"`
	// Records[i] is the number of trace records written up to the
	// checkpoint at Steps[i].
	Records []int `json:"records"`
	// Spaced is the number of spaced checkpoints (Steps[:Spaced]).
	Spaced      int `json:"spaced"`
	ApproxBytes int `json:"approxBytes"`
	// Refined is true when RefineCheckpoints has nothing more to gain
	// from the checkpoints as they are.
	Refined bool `json:"refined"`
}

// CheckpointStats reports the rewind points kept.
func (s *Session) CheckpointStats() CheckpointStats {
	st := CheckpointStats{Count: len(s.cps.list), Every: s.cps.every, Spaced: len(s.cps.list), ApproxBytes: s.cps.bytes, Refined: s.cps.refined == s.refineSignature()}
	for _, c := range s.cps.list {
		st.Steps = append(st.Steps, c.sim.Step())
		st.Records = append(st.Records, c.sim.Records())
	}
	if c := s.cps.scratch; c != nil {
		st.Count++
		st.Steps = append(st.Steps, c.sim.Step())
		st.Records = append(st.Records, c.sim.Records())
	}
	return st
}

// resetCheckpoints drops every checkpoint and takes the first, at step 0.
func (s *Session) resetCheckpoints() {
	budget := maxCheckpointBytes
	if s.cps.budget > 0 {
		budget = s.cps.budget
	}
	s.cps = checkpoints{every: minCheckpointEvery, max: maxCheckpoints, gap: scratchGap, budget: budget}
	s.cps.list = append(s.cps.list, s.saveCheckpoint(nil))
	s.cps.bytes = s.cps.list[0].bytes
}

// SetCheckpointBudget bounds the memory the spaced rewind checkpoints may
// hold (estimated; 200 MB unless set; one scratch checkpoint comes on
// top, see trailHead). A front end that only plays forward,
// like the command line, keeps its memory for the run with a small budget;
// at least two checkpoints are always kept, the first at step 0.
func (s *Session) SetCheckpointBudget(bytes int) {
	s.cps.budget = max(bytes, 1)
	s.fitCheckpoints()
}

// saveCheckpoint saves the current state, sharing what did not change
// with prev (an earlier checkpoint of this run, or nil).
func (s *Session) saveCheckpoint(prev *checkpoint) checkpoint {
	var after *sim.Checkpoint
	if prev != nil {
		after = prev.sim
	}
	cp := s.sim.CheckpointAfter(after)
	return checkpoint{sim: cp, timelineNext: s.timeline.next, armed: s.timeline.armed, bytes: cp.ApproxBytes()}
}

// checkpointAfterStep takes a checkpoint when the run has gone a spacing
// past the last one kept: every steps, or every times the run's mean
// records per step in trace records, whichever comes first. The records
// rule puts checkpoints as close in replay work in a stretch of heavy
// steps (a large run's pod creation writes several records per step more
// than its rollout) as elsewhere: counted in steps alone, a seek into the
// creation of 10,000 pods replayed all of it.
func (s *Session) checkpointAfterStep() {
	if !s.spacedCheckpointDue() {
		return
	}
	c := s.saveCheckpoint(&s.cps.list[len(s.cps.list)-1])
	s.cps.list = append(s.cps.list, c)
	s.cps.bytes += c.bytes
	s.fitCheckpoints()
}

// spacedCheckpointDue reports whether the step just taken is on the
// spacing (see checkpointAfterStep), widening the spacing first when the
// cluster has grown too large for it. It runs after every step: the
// object count is read only once a rule fires.
func (s *Session) spacedCheckpointDue() bool {
	n := s.sim.Steps()
	last := s.cps.list[len(s.cps.list)-1].sim
	steps := n - last.Step()
	if steps <= 0 {
		return false
	}
	records := s.sim.Recorder().Len()
	due := func() bool {
		return steps >= s.cps.every || (records-last.Records())*n >= s.cps.every*records
	}
	if !due() {
		return false
	}
	dear := s.affordableSpacing()
	for float64(s.cps.every) < dear {
		s.cps.every *= 2
	}
	// The records rule may fire, but not more often than checkpoints
	// are affordable.
	return due() && float64(steps) >= dear
}

// affordableSpacing is the fewest steps between checkpoints that keeps
// their cost a few percent of the run: stepsPerObject per stored object.
func (s *Session) affordableSpacing() float64 {
	return stepsPerObject * float64(s.sim.Server().ObjectCount())
}

// trailEvery is the distance the trailing scratch checkpoint keeps
// behind the head (see trailHead): the affordable spacing, at least
// minTrailEvery steps.
func (s *Session) trailEvery() int {
	return max(minTrailEvery, int(s.affordableSpacing()))
}

// trailHead keeps the scratch checkpoint close behind the head of a run
// that is being played, so that the first step back from where it paused
// replays at most about trailEvery steps instead of up to a whole spacing
// (in the benchmark's 100k-step run, when checkpoints copied their maps
// whole, about 6,500 steps: 29 ms native, 108 ms under js/wasm; with the
// spacing at 2,048 steps since, BenchmarkFirstStepBackSpaced and
// BenchmarkFirstStepBack are both under 1 ms native, 2.6 ms under
// js/wasm). Advance calls it before it extends the run from its
// head, a state the user has been shown (RunToEnd, and tests that step
// through Advance one step at a time, call it too): it takes a scratch
// checkpoint there when trailEvery steps have passed since the latest
// checkpoint, spaced or scratch. trailEvery follows the spacing's cost rule
// (stepsPerObject steps per stored object, at least minTrailEvery); when
// that is no closer than the spacing, or when the budget cannot even hold
// the two spaced checkpoints always kept, it does nothing. Only between
// calls: a checkpoint copies every object's index entry and each
// component copies what it then writes, so taken every trailEvery steps
// inside a long call it slowed a 100k-step run down (2.3 to 2.8 s,
// measured on a loaded machine); playing calls Advance for a few steps at
// a time, so a pause is never far from the last call's start. Like the one
// a step back leaves, the scratch checkpoint comes on top of the budget,
// which bounds the spaced ones (counted in, it pushed one of them out: a
// seek to a uniformly drawn step replayed 14,049 trace records on average
// instead of 11,055); it holds one checkpoint's copies and the versions of
// what changed since it was taken. When the call then takes no step (the run
// has ended), the checkpoint would stand at the head, of no use for a step
// back, and the one it replaced is put back: trailHead returns that undo
// (nil when it took none).
func (s *Session) trailHead() (undo func()) {
	n := s.sim.Steps()
	if s.forwardOnly || n != len(s.history) {
		return nil
	}
	if k := s.nextUser; k > 0 && s.user[k-1].AtStep == n {
		// A checkpoint holds the state before the user actions recorded at
		// its step; these already ran.
		return nil
	}
	trailEvery := s.trailEvery()
	if trailEvery >= s.cps.every {
		return nil
	}
	latest := s.cps.list[len(s.cps.list)-1].sim.Step()
	old := s.cps.scratch
	if old != nil {
		latest = max(latest, old.sim.Step())
	}
	if n-latest < trailEvery || s.cps.spacedBytes() > s.cps.budget {
		return nil
	}
	s.setScratch()
	return func() {
		s.dropScratch()
		if old != nil {
			s.cps.scratch = old
			s.cps.bytes += old.bytes
		}
	}
}

// spacedBytes is the estimated size of the spaced checkpoints, the ones
// the budget bounds (bytes without the scratch checkpoint's).
func (cps *checkpoints) spacedBytes() int {
	if c := cps.scratch; c != nil {
		return cps.bytes - c.bytes
	}
	return cps.bytes
}

// fitCheckpoints drops checkpoints until at most max are kept and their
// size is within the budget (keeping at least two), then widens the
// spacing to the mean gap between those kept, if it dropped any.
func (s *Session) fitCheckpoints() {
	dropped := false
	for len(s.cps.list) > 2 && (len(s.cps.list) > s.cps.max || s.cps.spacedBytes() > s.cps.budget) {
		s.dropLeastUseful()
		dropped = true
	}
	if !dropped {
		return
	}
	list := s.cps.list
	mean := list[len(list)-1].sim.Step() / (len(list) - 1)
	mean = (mean + minCheckpointEvery - 1) / minCheckpointEvery * minCheckpointEvery
	s.cps.every = max(s.cps.every, mean)
}

// dropLeastUseful drops the checkpoint whose loss lengthens seeks least
// for what it frees. A seek to a uniformly drawn step replays, on average,
// half the trace records of the gap it falls in, weighted by the steps in
// that gap: the sum over gaps of steps times records, halved. Merging two
// gaps of s1 and s2 steps and r1 and r2 records adds (s1*r2 + s2*r1)/2 to
// it. Records, not steps alone, because steps differ in cost by orders of
// magnitude (a sync that creates 500 pods writes over a thousand records,
// a watch delivery a few) and a replay redoes the work the records follow.
// Over the memory budget, that added work is weighed against the memory
// dropping the checkpoint frees (freedByDropping): a checkpoint of a large run's first
// steps holds few objects and saves a long replay of heavy steps, and
// went first when only the work counted (a seek to step 1,654 of a
// 10,000-replica run replayed the creation of every pod: 274 ms in the
// browser's worker). Over the count limit alone, every checkpoint frees
// one place and the work decides. The checkpoint dropped is the one,
// neither the first nor the last, for which that is least, the earliest
// of equals, among those whose loss leaves no gap longer (in records)
// than the longest one now, when there are any: what a seek to any step
// can take is the longest gap's replay, and weighing by the mean alone
// kept many cheap checkpoints in light stretches and split the heavy one
// less (at the default budget of the benchmark's 100k-step run: 94
// checkpoints, the longest gap 10,279 records; with this rule 74 and
// 6,950). The checkpoint after it (the scratch one too) may have shared
// its states: that one's estimate is taken again, since the checkpoint
// now before it. The list must hold more than two checkpoints.
func (s *Session) dropLeastUseful() {
	list := s.cps.list
	byBytes := s.cps.spacedBytes() > s.cps.budget
	largest := 0
	for i := 1; i < len(list); i++ {
		largest = max(largest, list[i].sim.Records()-list[i-1].sim.Records())
	}
	// grows: dropping the best one makes a gap longer than largest.
	best, bestCost, bestGrows := 1, -1.0, true
	for i := 1; i < len(list)-1; i++ {
		s1, s2 := list[i].sim.Step()-list[i-1].sim.Step(), list[i+1].sim.Step()-list[i].sim.Step()
		r1, r2 := list[i].sim.Records()-list[i-1].sim.Records(), list[i+1].sim.Records()-list[i].sim.Records()
		cost := float64(s1)*float64(r2) + float64(s2)*float64(r1)
		if byBytes {
			cost /= float64(max(s.freedByDropping(i), 1))
		}
		grows := r1+r2 > largest
		if bestCost < 0 || (bestGrows && !grows) || (grows == bestGrows && cost < bestCost) {
			best, bestCost, bestGrows = i, cost, grows
		}
	}
	s.removeCheckpoint(best)
}

// freedByDropping estimates the memory dropping list[i] (neither the first
// nor the last) frees: its own estimate, less what the checkpoint after it
// then holds beyond the one before it that it did not hold beyond list[i].
// An object version list[i] and the next checkpoint both hold (a pod
// created in the gap before list[i] and not changed until after the next
// one) stays alive: counting it, as list[i].bytes does, made the
// checkpoints of a stretch of heavy steps (pods created by the hundred,
// each a new object) look dear and go first, leaving that stretch the
// longest gaps of the run.
func (s *Session) freedByDropping(i int) int {
	list := s.cps.list
	next := list[i+1]
	return list[i].bytes + next.bytes - next.sim.ApproxBytesAfter(list[i-1].sim)
}

// removeCheckpoint drops list[i] (neither the first nor the last kept
// alone), estimating the next one's size again from the one now before it.
func (s *Session) removeCheckpoint(i int) {
	list := s.cps.list
	if i+1 < len(list) {
		list[i+1].bytes = list[i+1].sim.ApproxBytesAfter(list[i-1].sim)
	}
	copy(list[i:], list[i+1:])
	list[len(list)-1] = checkpoint{}
	s.cps.list = list[:len(list)-1]
	s.rescoreScratch()
}

// rescoreScratch estimates the scratch checkpoint's size again from the
// checkpoint now before it, and sums the sizes.
func (s *Session) rescoreScratch() {
	if sc := s.cps.scratch; sc != nil {
		sc.bytes = sc.sim.ApproxBytesAfter(s.cps.nearestKept(sc.sim.Step()).sim)
	}
	s.cps.sumBytes()
}

// sumBytes recomputes bytes from the checkpoints kept.
func (cps *checkpoints) sumBytes() {
	cps.bytes = 0
	for _, c := range cps.list {
		cps.bytes += c.bytes
	}
	if c := cps.scratch; c != nil {
		cps.bytes += c.bytes
	}
}

// setScratch replaces the scratch checkpoint by the current state.
func (s *Session) setScratch() {
	s.dropScratch()
	prev := s.cps.nearest(s.sim.Steps())
	c := s.saveCheckpoint(&prev)
	s.cps.scratch = &c
	s.cps.bytes += c.bytes
}

func (s *Session) dropScratch() {
	if c := s.cps.scratch; c != nil {
		s.cps.bytes -= c.bytes
		s.cps.scratch = nil
	}
}

// dropCheckpointsAfter forgets the checkpoints taken after step n: the
// future they saved is being rewritten.
func (s *Session) dropCheckpointsAfter(n int) {
	if c := s.cps.scratch; c != nil && c.sim.Step() > n {
		s.dropScratch()
	}
	i := len(s.cps.list)
	for i > 1 && s.cps.list[i-1].sim.Step() > n {
		i--
	}
	for _, c := range s.cps.list[i:] {
		s.cps.bytes -= c.bytes
	}
	clear(s.cps.list[i:])
	s.cps.list = s.cps.list[:i]
}

// nearest returns the last checkpoint at or before step n.
func (cps *checkpoints) nearest(n int) checkpoint {
	best := cps.nearestKept(n)
	if c := cps.scratch; c != nil && c.sim.Step() <= n && c.sim.Step() > best.sim.Step() {
		best = *c
	}
	return best
}

// restore puts the session in the state of c: the simulation, the
// timeline's cursor and the user actions still to run.
func (s *Session) restore(c checkpoint) {
	s.timeline.next = c.timelineNext
	s.sim.Restore(c.sim)
	if c.foreign {
		s.timeline.rebind(s.sim, c.armed)
	} else {
		s.timeline.armed = c.armed
	}
	at := c.sim.Step()
	s.nextUser = 0
	for s.nextUser < len(s.user) && s.user[s.nextUser].AtStep < at {
		s.nextUser++
	}
}

// inheritCheckpoints continues the run of another simulation of the
// same scenario, seed and user actions up to step n (a fork's parent, or
// the simulation Restore replaces), from its checkpoints cps instead of
// replaying it from step 0: s's simulation, just rebuilt, restores the
// last checkpoint at or before n, and the checkpoints up to that one
// become s's rewind points (marked foreign: their armed actions are
// rebound on restore; the storage they share is never written again by
// either run, see sim.Restore), with the other session's spacing
// and limits. s then replays the rest of the way itself; its history and
// chart samples must hold the steps up to there.
func (s *Session) inheritCheckpoints(cps *checkpoints, n int) {
	c := cps.nearest(n)
	at := c.sim.Step()
	kept := make([]checkpoint, 0, len(cps.list)+1)
	for _, k := range cps.list {
		if k.sim.Step() < at {
			k.foreign = true
			kept = append(kept, k)
		}
	}
	c.foreign = true
	kept = append(kept, c)
	s.cps = checkpoints{list: kept, every: cps.every, max: cps.max, gap: cps.gap, budget: cps.budget}
	s.cps.sumBytes()
	s.restore(c)
}

// nearestKept returns the last checkpoint of the list (the scratch one
// aside) at or before step n.
func (cps *checkpoints) nearestKept(n int) checkpoint {
	best := cps.list[0]
	for _, c := range cps.list[1:] {
		if c.sim.Step() > n {
			break
		}
		best = c
	}
	return best
}

// wellFormed reports whether the list holds its invariant: a first
// checkpoint at step 0, then strictly later ones.
func (cps *checkpoints) wellFormed() bool {
	if len(cps.list) == 0 || cps.list[0].sim == nil || cps.list[0].sim.Step() != 0 {
		return false
	}
	for i := 1; i < len(cps.list); i++ {
		if cps.list[i].sim == nil || cps.list[i].sim.Step() <= cps.list[i-1].sim.Step() {
			return false
		}
	}
	return true
}

// replayToward has the simulation, about to replay the run from step n
// (a state of the run the checkpoints were taken on), store the versions
// of the first spaced checkpoint after n instead of new copies of them
// (sim.ReplayToward): the checkpoints a replay takes (a step back's
// scratch one, refinement's) and the state it leaves then share them. It
// returns the call that stops it, which must come before anything but the
// run's recorded steps and user actions runs.
func (s *Session) replayToward(n int) (stop func()) {
	for _, c := range s.cps.list {
		if c.sim.Step() > n {
			s.sim.ReplayToward(c.sim)
			return func() { s.sim.ReplayToward(nil) }
		}
	}
	return func() {}
}
