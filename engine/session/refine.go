package session

import "sort"

// Refining the rewind points while the user is idle.
//
// The checkpoints a run keeps are taken as it is computed, on a spacing in
// steps and trace records, and dropped, once over the budget, by what their
// loss adds to the mean seek for the memory they free (dropLeastUseful).
// That layout leaves some gaps between checkpoints longer in replay work
// than others: in the benchmark's 100k-step run of 7,800 replicas (337,466
// trace records) the default budget keeps 74 checkpoints, 4,560 records
// apart on average, and the longest gap holds 6,950. A seek to any step is
// bounded by the largest gap, so RefineCheckpoints, which the page's
// Worker calls when nothing else is asked of it, evens them out, one
// change to the list per call: it moves the checkpoint between the
// largest gap and a neighbour to the point that splits the two evenly, or
// takes one half-way (in records) through the largest gap, dropping
// another if the budget needs it. A change must lower the largest gap, or
// keep it and leave fewer gaps near it (gapScore), and is weighed from the
// history first, so a call that gains nothing replays nothing; when no
// change gains within the budget, it reports that it is done (until the
// list changes). The gap after the last checkpoint is left alone: it grows
// while the run is played, and a step back there replays from the scratch
// checkpoint trailing the head.
//
// A checkpoint refining takes is the state of a replay, which shares the
// first pass's object versions with the checkpoint after it
// (Session.replayToward): without that it held a second copy of every
// object the replay wrote, its estimate counted them (objects changed are
// counted by identity), and no change fitted the budget. On that run: 7
// changes in 0.14 s native, the largest gap 6,950 -> 5,393 records
// (BenchmarkSeekWorst, BenchmarkSeekWorstRefined).

// minRefineGap is the fewest steps a gap must span for RefineCheckpoints
// to split it.
const minRefineGap = 2 * minCheckpointEvery

// refineSignature identifies the checkpoint list a refinement gave up on
// (their count, and the sums of their steps and records) and the budget:
// RefineCheckpoints tries again once either has changed.
type refineSignature struct{ count, steps, records, budget int }

// RefineCheckpoints does one unit of idle work on the rewind checkpoints
// (see above) and reports whether it changed them; false means there is
// nothing more to gain until the run or the list changes. The session is
// left at the step it was at, in the same state.
func (s *Session) RefineCheckpoints() bool {
	if s.forwardOnly || len(s.history) == 0 || !s.cps.wellFormed() {
		return false
	}
	if s.cps.refined == s.refineSignature() {
		return false
	}
	if !s.refineOnce() {
		s.cps.refined = s.refineSignature()
		return false
	}
	return true
}

// refineSignature describes the checkpoint list as it is now.
func (s *Session) refineSignature() refineSignature {
	if len(s.cps.list) == 0 {
		return refineSignature{}
	}
	sig := refineSignature{count: len(s.cps.list), budget: s.cps.budget}
	for _, c := range s.cps.list {
		sig.steps += c.sim.Step()
		sig.records += c.sim.Records()
	}
	return sig
}

// refineOnce improves the layout by one change to the list, the first of
// these that gains (see gapScore) within the budget: moving the checkpoint
// between the largest gap and its smaller neighbour to the point that
// splits the two evenly (one checkpoint taken, one dropped), or taking one
// in the middle of the largest gap (and, over the budget, dropping the one
// whose loss makes room and leaves the best layout). Each change is first
// scored from the history; only one that would gain is replayed. It
// reports whether it changed the list.
func (s *Session) refineOnce() bool {
	worst, before := s.largestReplay()
	if before == 0 {
		return false
	}
	goal := before - max(1, before/refineGain)
	cur := s.scoreOf(-1, -1, goal)
	gains := func(g gapScore) bool { return g.gainsOn(cur, goal) }
	n := len(s.cps.list)
	// The neighbours, the smaller first: the gap before the largest one
	// (moving the checkpoint that starts it) and the one after it (moving
	// the one that ends it, unless that is the last checkpoint).
	var moves []int
	if worst > 0 {
		moves = append(moves, worst)
	}
	if worst+1 < n-1 {
		moves = append(moves, worst+1)
	}
	if len(moves) == 2 && s.replayOf(worst+1) < s.replayOf(worst-1) {
		moves[0], moves[1] = moves[1], moves[0]
	}
	for _, moved := range moves {
		old := s.cps.list[moved]
		at, ok := s.midpoint(moved-1, s.gapEnd(moved))
		if !ok || at == old.sim.Step() || !gains(s.scoreWith(moved-1, moved, at, goal)) {
			continue
		}
		s.removeCheckpoint(moved)
		if s.insertCheckpointAt(moved-1, at) {
			// A move keeps the count: it must fit as it is.
			if s.fits() && gains(s.scoreOf(-1, -1, goal)) {
				return true
			}
			s.removeCheckpoint(moved)
		}
		s.putCheckpoint(moved, old)
	}
	at, ok := s.midpoint(worst, s.gapEnd(worst))
	if !ok || !gains(s.scoreWith(worst, worst, at, goal)) || !s.insertCheckpointAt(worst, at) {
		return false
	}
	if s.fits() {
		if gains(s.scoreOf(-1, -1, goal)) {
			return true
		}
	} else if j := s.leastNeeded(worst+1, goal, gains); j > 0 {
		s.removeCheckpoint(j)
		return true
	}
	s.removeCheckpoint(worst + 1)
	return false
}

// gapScore ranks checkpoint layouts: the largest gap (in records a seek
// replays, the last gap left out), then the number of gaps over the goal
// of the refinement (the largest, less one part in refineGain).
type gapScore struct{ largest, over int }

// gainsOn reports whether g is better than cur: its largest gap is within
// the goal, or no larger and fewer gaps are over the goal (gaps of almost
// the same size are split one at a time). Every change RefineCheckpoints
// keeps lowers (largest, over), so refining ends.
func (g gapScore) gainsOn(cur gapScore, goal int) bool {
	return g.largest <= goal || (g.largest <= cur.largest && g.over < cur.over)
}

// less orders scores, the better first.
func (g gapScore) less(h gapScore) bool {
	return g.largest < h.largest || (g.largest == h.largest && g.over < h.over)
}

// scoreWith scores the layout once the gaps after list[first] to
// list[last] (first <= last) become two, split at step at: read from the
// history, before any replay.
func (s *Session) scoreWith(first, last, at, goal int) gapScore {
	split := s.recordsThrough(at)
	return s.scoreOf(first, last, goal, split-s.cps.list[first].sim.Records(), s.recordsThrough(s.gapEnd(last))-split)
}

// scoreOf scores the layout whose gaps after list[first] to list[last]
// are replaced by gaps of the given records (all gaps kept when first <
// 0).
func (s *Session) scoreOf(first, last, goal int, gaps ...int) gapScore {
	var g gapScore
	add := func(r int) {
		g.largest = max(g.largest, r)
		if r > goal {
			g.over++
		}
	}
	for _, r := range gaps {
		add(r)
	}
	for i := 0; i < len(s.cps.list)-1; i++ {
		if first < 0 || i < first || i > last {
			add(s.replayOf(i))
		}
	}
	return g
}

// refineGain: a change must lower the largest gap by at least one part in
// refineGain, or refining stops (each change costs a replay of about half
// a gap).
const refineGain = 50

// fits reports whether the spaced checkpoints are within the budget and
// the count.
func (s *Session) fits() bool {
	return s.cps.spacedBytes() <= s.cps.budget && len(s.cps.list) <= s.cps.max
}

// midpoint returns the step, at least minCheckpointEvery steps after
// list[i] and before last, by which half the records a replay from list[i]
// to last writes are written; false when the stretch is shorter than
// minRefineGap.
func (s *Session) midpoint(i, last int) (int, bool) {
	from := s.cps.list[i].sim.Step()
	if last-from < minRefineGap {
		return 0, false
	}
	lo, hi := from+minCheckpointEvery, last-minCheckpointEvery
	half := (s.cps.list[i].sim.Records() + s.recordsThrough(last)) / 2
	return lo + sort.Search(hi-lo, func(k int) bool { return s.recordsThrough(lo+k) >= half }), true
}

// insertCheckpointAt takes a checkpoint at step at, which lies in the gap
// after list[i], and puts it after list[i], reporting whether it could:
// the session restores list[i], replays to at, saves the state there, and
// goes back to where it was through a checkpoint of its own (dropped
// after: taking and restoring one costs less than replaying).
func (s *Session) insertCheckpointAt(i, at int) bool {
	back := s.saveCheckpoint(nil)
	// back holds the state after the user actions recorded at its step,
	// which Seek ran; restore sets the cursor before them.
	doneUser := s.nextUser
	s.restore(s.cps.list[i])
	// Stopped before anything but the replay runs, even if a step panics.
	defer s.replayToward(s.sim.Steps())()
	// at lies before the last checkpoint (refineOnce neither moves it nor
	// splits the gap after it), so the replay takes no spaced checkpoint
	// (checkpointAfterStep counts from the last one).
	for s.sim.Steps() < at {
		if _, ok := s.stepOnce(); !ok {
			break
		}
	}
	ok := s.sim.Steps() == at
	if ok {
		s.putCheckpoint(i+1, s.saveCheckpoint(&s.cps.list[i]))
	}
	s.restore(back)
	s.nextUser = doneUser
	return ok
}

// putCheckpoint inserts c at list[i] (after list[i-1], before the
// current list[i]), estimating the next one's size again from c.
func (s *Session) putCheckpoint(i int, c checkpoint) {
	c.bytes = c.sim.ApproxBytesAfter(s.cps.list[i-1].sim)
	s.cps.list = append(s.cps.list, checkpoint{})
	copy(s.cps.list[i+1:], s.cps.list[i:])
	s.cps.list[i] = c
	if i+1 < len(s.cps.list) {
		next := &s.cps.list[i+1]
		next.bytes = next.sim.ApproxBytesAfter(c.sim)
	}
	s.rescoreScratch()
}

// leastNeeded returns the checkpoint, other than the first, the last and
// keep, whose loss brings the checkpoints within the budget and the count
// and leaves a layout that gains, the best of those (-1 when no single
// loss does).
func (s *Session) leastNeeded(keep, goal int, gains func(gapScore) bool) int {
	list := s.cps.list
	n := len(list)
	if n-1 > s.cps.max {
		return -1
	}
	drop, best := -1, gapScore{}
	spaced := s.cps.spacedBytes()
	for j := 1; j < n-1; j++ {
		if j == keep {
			continue
		}
		// The gap after list[j-1] then reaches the end of list[j]'s.
		g := s.scoreOf(j-1, j, goal, s.recordsThrough(s.gapEnd(j))-list[j-1].sim.Records())
		if !gains(g) || (drop >= 0 && !g.less(best)) {
			continue
		}
		// Without list[j], list[j+1] holds what changed since list[j-1]
		// (an estimate that reads every stored object: made last).
		next := list[j+1]
		if spaced-list[j].bytes-next.bytes+next.sim.ApproxBytesAfter(list[j-1].sim) > s.cps.budget {
			continue
		}
		drop, best = j, g
	}
	return drop
}

// largestReplay returns the index of the checkpoint whose gap replays the
// most trace records, and those records. The gap after the last checkpoint
// is left out: it grows while the run is played, and a step back there
// replays from the scratch checkpoint trailing the head (trailHead).
func (s *Session) largestReplay() (i, records int) {
	for j := 0; j < len(s.cps.list)-1; j++ {
		if r := s.replayOf(j); r > records {
			i, records = j, r
		}
	}
	return i, records
}

// replayOf is the number of trace records a seek to the last step of the
// gap after list[i] replays.
func (s *Session) replayOf(i int) int {
	return s.recordsThrough(s.gapEnd(i)) - s.cps.list[i].sim.Records()
}

// gapEnd is the last step of the gap after list[i]: the step before the
// next checkpoint, or the last step computed.
func (s *Session) gapEnd(i int) int {
	if i+1 < len(s.cps.list) {
		return s.cps.list[i+1].sim.Step() - 1
	}
	return len(s.history)
}

// recordsThrough is the number of trace records written up to the end of
// step n (n at least 1 and at most the steps computed; for 0, those of the
// first checkpoint).
func (s *Session) recordsThrough(n int) int {
	if n <= 0 {
		return s.cps.list[0].sim.Records()
	}
	return int(s.history[n-1].LastSeq)
}
