package session

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/kubelet"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// The rewind property: whatever the user does (step, seek anywhere, act at
// any step, step back), the session's state is the state a fresh session
// reaches by playing from step 0 with the same user actions at the same
// steps: same view, same trace (JSON, byte for byte), same chart samples
// and step list. Checkpoints are made dense and few here, so that seeks
// restore checkpoints, thinning drops them and actions rewrite the future.
// A field a component forgets to checkpoint shows up as a difference.

// rewindCase is one scenario of the property test.
type rewindCase struct {
	name string
	src  []byte
}

func rewindCases(t *testing.T) []rewindCase {
	var cases []rewindCase
	for _, id := range scenarios.IDs() {
		src, _ := scenarios.Source(id)
		cases = append(cases, rewindCase{id, src})
	}
	// A larger run: 150 pods created, then replaced by a rolling update.
	cases = append(cases, rewindCase{"rollout-150", benchScenario(150)})
	// The non-default turn-order policies keep state of their own (the
	// seeded stream of the random policy, whether a controller has synced).
	for _, policy := range []string{"random", "drainQueue"} {
		for _, id := range []string{"rolling-update-10-3-2", "informer-lag"} {
			src, _ := scenarios.Source(id)
			// Both files have "  seed: 1"; informer-lag has a cluster
			// block of its own, the other none.
			text := string(src)
			if strings.Contains(text, "\n  cluster:\n") {
				text = strings.Replace(text, "\n  cluster:\n", "\n  cluster:\n    turnOrder: "+policy+"\n", 1)
			} else {
				text = strings.Replace(text, "  seed: 1\n", "  seed: 1\n  cluster: {turnOrder: "+policy+"}\n", 1)
			}
			if text == string(src) {
				t.Fatalf("%s: no seed line to add the turn order after", id)
			}
			cases = append(cases, rewindCase{id + "/turnOrder=" + policy, []byte(text)})
		}
	}
	// Pasted cluster output: restored pods that the kubelet resumes.
	for _, name := range []string{"stuck-rollout", "three-of-ten"} {
		src, err := os.ReadFile("../scenario/testdata/live/" + name + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, rewindCase{"live/" + name, src})
	}
	// Required anti-affinity on 3 nodes: new pods wait, Pending, for old
	// ones to go (the scheduler's pods waiting for pods, its node counts).
	src, err := os.ReadFile("../scenariotest/testdata/anti-affinity-rollout.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, rewindCase{"anti-affinity", src})
	return cases
}

// plannedAction is a user action as the reference replays it.
type plannedAction struct {
	at     int
	action scenario.Action
}

// reference replays from step 0 with the actions planned, forward only.
type reference struct {
	t       *testing.T
	src     []byte
	seed    uint64
	plan    []plannedAction
	sess    *Session
	applied int
	// pendingAt is true when the reference stands at a step whose planned
	// actions were not applied yet (it arrived by stepping).
}

func (r *reference) reset() {
	s, err := Load("ref.yaml", r.src, &r.seed)
	if err != nil {
		r.t.Fatal(err)
	}
	r.sess, r.applied = s, 0
}

// at moves the reference to step n: actions planned before n are applied
// before the steps they precede; with actionsAtN, those planned at n too
// (a Seek shows them, a step does not).
func (r *reference) at(n int, actionsAtN bool) *Session {
	if r.sess == nil || r.sess.Step() > n || (r.sess.Step() == n && r.applied < len(r.plan) && r.plan[r.applied].at < n) {
		r.reset()
	}
	for {
		for r.applied < len(r.plan) && r.plan[r.applied].at == r.sess.Step() && (r.sess.Step() < n || actionsAtN) {
			_, _ = r.sess.Apply(r.plan[r.applied].action)
			r.applied++
		}
		if r.sess.Step() >= n {
			return r.sess
		}
		if len(r.sess.Advance(ByEvent, 1)) == 0 {
			return r.sess
		}
	}
}

// replan records that the user acted at step n: the actions planned after
// n are forgotten, as the session forgets them.
func (r *reference) replan(n int, a scenario.Action) {
	kept := r.plan[:0:0]
	for _, p := range r.plan {
		if p.at <= n {
			kept = append(kept, p)
		}
	}
	r.plan = append(kept, plannedAction{at: n, action: a})
	r.sess = nil
}

func traceJSON(t *testing.T, s *Session) string {
	t.Helper()
	b, err := json.Marshal(s.Sim().Recorder().Records())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func samplesJSON(t *testing.T, s *Session) string {
	t.Helper()
	b, err := json.Marshal(struct {
		Samples any
		History any
	}{s.Samples()[:s.Step()+1], append([]sim.StepInfo{}, s.History()[:s.Step()]...)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// same fails unless got is in the state the reference reaches.
func same(t *testing.T, what string, got *Session, ref *Session) {
	t.Helper()
	if got.Step() != ref.Step() {
		t.Fatalf("%s: at step %d, replay from 0 reaches %d", what, got.Step(), ref.Step())
	}
	if a, b := viewJSON(t, got), viewJSON(t, ref); a != b {
		t.Fatalf("%s: view at step %d differs from a replay from step 0:\n got %s\nwant %s", what, got.Step(), firstDiff(a, b), firstDiff(b, a))
	}
	if a, b := traceJSON(t, got), traceJSON(t, ref); a != b {
		t.Fatalf("%s: trace at step %d differs from a replay from step 0:\n got %s\nwant %s", what, got.Step(), firstDiff(a, b), firstDiff(b, a))
	}
	if d := stateDiff(got.sim, ref.sim); d != "" {
		t.Fatalf("%s: at step %d the simulation differs from a replay from step 0 at sim%s", what, got.Step(), d)
	}
	if got.timeline.next != ref.timeline.next || got.nextUser != ref.nextUser {
		t.Fatalf("%s: timeline/user-action cursors %d/%d, replay from 0 has %d/%d", what, got.timeline.next, got.nextUser, ref.timeline.next, ref.nextUser)
	}
	if a, b := samplesJSON(t, got), samplesJSON(t, ref); a != b {
		t.Fatalf("%s: samples/steps at step %d differ from a replay from step 0:\n got %s\nwant %s", what, got.Step(), firstDiff(a, b), firstDiff(b, a))
	}
}

// firstDiff shows a from a little before where it stops matching b.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo, hi := max(0, i-120), min(len(a), i+200)
	return fmt.Sprintf("…%s… (at byte %d)", a[lo:hi], i)
}

// randomAction picks a user action that makes things happen in s.
func randomAction(r *rng.Stream, s *Session) (scenario.Action, bool) {
	v := s.View(ViewOptions{})
	var choices []scenario.Action
	for _, d := range v.Deployments {
		ref := scenario.Ref{Kind: scenario.KindDeployment, Name: d.Name}
		choices = append(choices,
			scenario.Action{Type: scenario.ActionScale, Namespace: d.Namespace, Target: ref, Replicas: int32(r.Intn(12))},
			scenario.Action{Type: scenario.ActionSetImage, Namespace: d.Namespace, Target: ref, Image: fmt.Sprintf("nginx:1.%d", 20+r.Intn(10))})
	}
	for _, rs := range v.ReplicaSets {
		if rs.Owner == "" {
			choices = append(choices, scenario.Action{Type: scenario.ActionScale, Namespace: rs.Namespace,
				Target: scenario.Ref{Kind: scenario.KindReplicaSet, Name: rs.Name}, Replicas: int32(r.Intn(8))})
		}
	}
	if len(v.Pods) > 0 {
		p := v.Pods[r.Intn(len(v.Pods))]
		choices = append(choices, scenario.Action{Type: scenario.ActionDeletePod, Namespace: p.Namespace, Pod: p.Name})
		choices = append(choices, scenario.Action{Type: scenario.ActionSetImageProfile, Image: p.Image,
			Profile: scenarioProfile(r)})
	}
	if len(v.Nodes) > 0 {
		n := v.Nodes[r.Intn(len(v.Nodes))]
		typ := scenario.ActionFailNode
		if !n.Ready {
			typ = scenario.ActionRecoverNode
		}
		choices = append(choices, scenario.Action{Type: typ, Node: n.Name})
	}
	if len(choices) == 0 {
		return scenario.Action{}, false
	}
	return choices[r.Intn(len(choices))], true
}

func scenarioProfile(r *rng.Stream) (p kubelet.ImageProfile) {
	switch r.Intn(3) {
	case 0:
		p.CrashLoop = true
	case 1:
		p.NeverReady = true
	}
	return p
}

func TestSeekThenContinueEqualsReplayFromZero(t *testing.T) {
	seeds := []uint64{1, 2}
	ops := 14
	if testing.Short() {
		seeds, ops = seeds[:1], 8
	}
	for _, c := range rewindCases(t) {
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("%s/seed=%d", c.name, seed), func(t *testing.T) {
				r := rng.New(seed).Stream(c.name)
				s, err := Load(c.name+".yaml", c.src, &seed)
				if err != nil {
					t.Fatal(err)
				}
				// Dense, few checkpoints: restores, thinning and drops all
				// happen within a short run.
				s.cps.every, s.cps.max, s.cps.gap = 3+r.Intn(20), 3+r.Intn(4), 1+r.Intn(4)
				ref := &reference{t: t, src: c.src, seed: seed}
				s.RunToEnd()
				if s.Step() > 4000 {
					t.Fatalf("%d steps: too long for this test", s.Step())
				}
				same(t, "run to the end", s, ref.at(s.Step(), false))
				for op := 0; op < ops; op++ {
					if op%3 == 2 {
						// Idle time: refining the checkpoints changes
						// nothing shown; the ops after it seek through them.
						v, tr := viewJSON(t, s), traceJSON(t, s)
						for i := 0; i < 4 && s.RefineCheckpoints(); i++ {
						}
						if !s.cps.wellFormed() || viewJSON(t, s) != v || traceJSON(t, s) != tr {
							t.Fatalf("op %d: refining the checkpoints changed the session at step %d", op, s.Step())
						}
					}
					switch k := r.Intn(12); {
					case k < 3: // seek anywhere computed, then continue
						n := r.Intn(s.MaxStep() + 1)
						if err := s.Seek(n); err != nil {
							t.Fatal(err)
						}
						same(t, fmt.Sprintf("op %d: seek to %d", op, n), s, ref.at(n, true))
						s.Advance(ByEvent, 1+r.Intn(40))
						same(t, fmt.Sprintf("op %d: seek to %d and continue", op, n), s, ref.at(s.Step(), false))
					case k < 5: // step back once at the end
						if err := s.Seek(s.MaxStep()); err != nil {
							t.Fatal(err)
						}
						n := max(s.Step()-1, 0)
						if err := s.Seek(n); err != nil {
							t.Fatal(err)
						}
						same(t, fmt.Sprintf("op %d: step back to %d", op, n), s, ref.at(n, true))
					case k < 6: // press back a few times at the end, act a little
						// earlier, then seek forward: the scratch checkpoint
						// the presses left is in the rewritten future
						if err := s.Seek(s.MaxStep()); err != nil {
							t.Fatal(err)
						}
						for press := 0; press < 1+r.Intn(4) && s.Step() > 0; press++ {
							n := s.Step() - 1
							if err := s.Seek(n); err != nil {
								t.Fatal(err)
							}
							same(t, fmt.Sprintf("op %d: press back to %d", op, n), s, ref.at(n, true))
						}
						n := max(s.Step()-1-r.Intn(3*s.cps.gap+2), 0)
						if err := s.Seek(n); err != nil {
							t.Fatal(err)
						}
						a, ok := randomAction(r, s)
						if !ok {
							continue
						}
						_, _ = s.Apply(a)
						ref.replan(n, a)
						fwd := n + r.Intn(6*s.cps.gap+2)
						_ = s.Seek(fwd)
						same(t, fmt.Sprintf("op %d: %s at step %d, then seek to %d", op, Describe(a), n, fwd), s, ref.at(s.Step(), true))
					case k < 8: // act at a random step, rewriting the future
						n := r.Intn(s.MaxStep() + 1)
						if err := s.Seek(n); err != nil {
							t.Fatal(err)
						}
						a, ok := randomAction(r, s)
						if !ok {
							continue
						}
						_, _ = s.Apply(a)
						ref.replan(n, a)
						same(t, fmt.Sprintf("op %d: %s at step %d", op, Describe(a), n), s, ref.at(n, true))
						s.Advance(ByEvent, r.Intn(300))
						same(t, fmt.Sprintf("op %d: continue after %s", op, Describe(a)), s, ref.at(s.Step(), false))
					case k < 10: // play on (a crash loop a user action started never ends)
						s.RunUntil(func(sm *sim.Sim) bool { return sm.Idle() }, 1500)
						same(t, fmt.Sprintf("op %d: play on", op), s, ref.at(s.Step(), false))
					default: // fork, and use the fork; the session must not move
						forkAndCheck(t, r, c.src, seed, s, ref, fmt.Sprintf("op %d", op))
					}
				}
				if st := s.CheckpointStats(); len(s.cps.list) > s.cps.max || st.Steps[0] != 0 {
					t.Fatalf("checkpoints %+v: more than %d kept or none at step 0", st, s.cps.max)
				}
			})
		}
	}
}

// A small checkpoint budget keeps few checkpoints (at least the one at
// step 0 and one more) and seeking stays exact.
func TestCheckpointBudget(t *testing.T) {
	src := benchScenario(150)
	s, err := Load("b.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.SetCheckpointBudget(1)
	s.RunToEnd()
	st := s.CheckpointStats()
	if st.Count > 2 || st.Steps[0] != 0 {
		t.Fatalf("budget of 1 byte: %+v", st)
	}
	ref := &reference{t: t, src: src, seed: 3}
	for _, n := range []int{s.MaxStep() / 3, s.MaxStep() - 1, 10} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		same(t, fmt.Sprintf("seek to %d", n), s, ref.at(n, true))
	}
	big, _ := Load("b.yaml", src, nil)
	big.RunToEnd()
	if n := big.CheckpointStats().Count; n <= 2 {
		t.Fatalf("the default budget kept %d checkpoints of a %d-step run", n, big.MaxStep())
	}
}

// A run whose trace spans three storage chunks (18,000 records) seeks back
// over each chunk boundary and forward again, and acts right after one:
// checkpoints hold the trace's chunk headers, and restoring one must give
// back the records a replay from step 0 gives, with later checkpoints
// still usable and a rewritten future kept apart from earlier ones.
func TestSeekAcrossTraceChunks(t *testing.T) {
	if testing.Short() {
		t.Skip("a 7,000-step run replayed several times")
	}
	src := benchScenario(400)
	seed := uint64(3)
	s, err := Load("b.yaml", src, &seed)
	if err != nil {
		t.Fatal(err)
	}
	s.RunToEnd()
	ref := &reference{t: t, src: src, seed: seed}
	// firstStepPast returns the first step after which the trace holds more
	// than n records.
	firstStepPast := func(n int) int {
		for i, info := range s.History() {
			if int(info.LastSeq) > n {
				return i + 1
			}
		}
		t.Fatalf("the run has %d records, not more than %d", s.Sim().Recorder().Len(), n)
		return 0
	}
	end := s.MaxStep()
	for _, b := range []int{16384, 8192} {
		k := firstStepPast(b)
		for _, n := range []int{k, k - 1, end} {
			if err := s.Seek(n); err != nil {
				t.Fatal(err)
			}
			same(t, fmt.Sprintf("seek to %d (boundary %d)", n, b), s, ref.at(n, true))
		}
	}
	k := firstStepPast(8192)
	if err := s.Seek(k); err != nil {
		t.Fatal(err)
	}
	a := scenario.Action{Type: scenario.ActionScale, Namespace: "default",
		Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}, Replicas: 380}
	if _, err := s.Apply(a); err != nil {
		t.Fatal(err)
	}
	ref.replan(k, a)
	s.Advance(ByEvent, 600)
	same(t, fmt.Sprintf("scale at %d and continue", k), s, ref.at(s.Step(), false))
	for _, n := range []int{k - 1, k + 300} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		same(t, fmt.Sprintf("seek to %d after the rewrite", n), s, ref.at(n, true))
	}
}

// forkAndCheck forks s at a random step computed, with or without its
// later actions, and checks the fork against a replay from step 0 while it
// plays on, seeks back (restoring the checkpoints it took over from s) and
// acts; then that s has not moved: a fork shares storage with its parent's
// checkpoints, and neither may write into the other's.
func forkAndCheck(t *testing.T, r *rng.Stream, src []byte, seed uint64, s *Session, ref *reference, what string) {
	t.Helper()
	beforeTrace, beforeView, beforeStep := traceJSON(t, s), viewJSON(t, s), s.Step()
	beforeCursors := [2]int{s.timeline.next, s.nextUser}
	n, keep := r.Intn(s.MaxStep()+1), r.Intn(2) == 0
	what = fmt.Sprintf("%s: fork at %d (keep later actions: %v)", what, n, keep)
	f, err := s.ForkAt(n, keep)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	fref := &reference{t: t, src: src, seed: seed}
	for _, p := range ref.plan {
		if keep || p.at < n {
			fref.plan = append(fref.plan, p)
		}
	}
	same(t, what, f, fref.at(n, false))
	f.Advance(ByEvent, 1+r.Intn(200))
	same(t, what+", played on", f, fref.at(f.Step(), false))
	m := r.Intn(f.Step() + 1)
	if err := f.Seek(m); err != nil {
		t.Fatal(err)
	}
	same(t, fmt.Sprintf("%s, seek back to %d", what, m), f, fref.at(m, true))
	if a, ok := randomAction(r, f); ok {
		_, _ = f.Apply(a)
		fref.replan(m, a)
		f.Advance(ByEvent, r.Intn(200))
		// (Still at m if no step followed: the action shows.)
		same(t, fmt.Sprintf("%s, %s at %d and on", what, Describe(a), m), f, fref.at(f.Step(), f.Step() == m))
	}
	if s.Step() != beforeStep || traceJSON(t, s) != beforeTrace || viewJSON(t, s) != beforeView || beforeCursors != [2]int{s.timeline.next, s.nextUser} {
		t.Fatalf("%s: the fork moved the session it came from", what)
	}
}

// Past the most checkpoints allowed, one is dropped at a time (the one
// whose loss adds least replay work, see dropLeastUseful): the list stays
// full, the newest checkpoint is kept, the spacing of new ones is at least
// the mean gap and the run ends less than a spacing after the last (how
// even the gaps stay: TestCheckpointsDroppedByWork).
func TestCheckpointsDroppedByUse(t *testing.T) {
	s := loadBench(t, benchScenario(150))
	s.cps.every, s.cps.max = 16, 6
	s.RunToEnd()
	st := s.CheckpointStats()
	if !s.cps.wellFormed() || len(s.cps.list) != s.cps.max {
		t.Fatalf("checkpoints %+v: want %d, well formed", st, s.cps.max)
	}
	steps := st.Steps[:len(s.cps.list)]
	last := steps[len(steps)-1]
	if end := s.Step(); end-last >= s.cps.every {
		t.Fatalf("checkpoints at %v, spacing %d: the run ends at %d, more than a spacing after the last", steps, s.cps.every, end)
	}
	if s.cps.every < last/(len(steps)-1) {
		t.Fatalf("checkpoints at %v: spacing %d, below the mean gap", steps, s.cps.every)
	}
}

// recordGaps returns the fewest and the most trace records written between
// two checkpoints next to each other in list.
func recordGaps(list []checkpoint) (minGap, maxGap int) {
	minGap = -1
	for i := 1; i < len(list); i++ {
		g := list[i].sim.Records() - list[i-1].sim.Records()
		if minGap < 0 || g < minGap {
			minGap = g
		}
		maxGap = max(maxGap, g)
	}
	return minGap, maxGap
}

// A checkpoint is taken a spacing of steps after the last, or sooner when
// the steps since have written as many trace records as a spacing of the
// run's average steps does: a large run's pod creation, whose steps write
// more records than its rollout's, gets checkpoints closer in steps (with
// steps alone, every gap here was 512 steps).
func TestCheckpointsTakenByRecords(t *testing.T) {
	s := loadBench(t, benchScenario(1000))
	s.cps.every, s.cps.max, s.cps.budget = 512, 1<<20, 1<<50
	s.RunToEnd()
	if s.cps.every != 512 {
		t.Fatalf("spacing widened to %d", s.cps.every)
	}
	short := 0
	for i := 1; i < len(s.cps.list); i++ {
		prev, c := s.cps.list[i-1].sim, s.cps.list[i].sim
		if gap := c.Step() - prev.Step(); gap > s.cps.every {
			t.Fatalf("checkpoints at %v: a gap of %d steps, over the spacing", s.CheckpointStats().Steps, gap)
		} else if gap < s.cps.every {
			short++
		}
	}
	if short == 0 {
		t.Fatalf("checkpoints at %v: every gap is the spacing in steps", s.CheckpointStats().Steps)
	}
}

// Over the memory budget, the checkpoint dropped is the one whose loss
// adds least replay work for the memory it holds: the checkpoints of a
// large run's first steps hold few objects, so they stay, and the first
// gap (the creation of the pods) stays short. Weighed by work alone, they
// went first: the first gap here was 10,951 records, 70% of the largest;
// now it is 4,345, under a third.
func TestCheckpointsDroppedByBytes(t *testing.T) {
	s := loadBench(t, benchScenario(2000))
	s.SetCheckpointBudget(30_000_000)
	s.RunToEnd()
	list := s.cps.list
	if s.cps.spacedBytes() > s.cps.budget || len(list) < 4 {
		t.Fatalf("%d checkpoints, %d bytes: want at least 4 within the budget %d", len(list), s.cps.spacedBytes(), s.cps.budget)
	}
	_, maxGap := recordGaps(list)
	if first := list[1].sim.Records() - list[0].sim.Records(); 2*first > maxGap {
		t.Fatalf("checkpoints at %v: the first gap has %d records, the largest %d", s.CheckpointStats().Steps, first, maxGap)
	}
}

// TestCheckpointsDroppedByWork: a large run's first steps are its
// heaviest (the creation of every pod), so the checkpoint dropped is chosen
// by the replay work its loss adds (steps times trace records, see
// dropLeastUseful), not by steps alone. In this run that keeps the gaps'
// records within 2.2x of each other; dropped by steps alone they were 2.45x
// apart (the first gap, the creation, twice the others' work).
func TestCheckpointsDroppedByWork(t *testing.T) {
	s := loadBench(t, benchScenario(2000))
	s.cps.every, s.cps.max = 16, 6
	s.RunToEnd()
	minGap, maxGap := recordGaps(s.cps.list)
	if float64(maxGap) > 2.2*float64(minGap) {
		t.Fatalf("checkpoints at steps %v: record gaps from %d to %d", s.CheckpointStats().Steps, minGap, maxGap)
	}
}

// A run played to its end keeps a scratch checkpoint trailing its head,
// so the first step back replays fewer steps than the trailing distance
// and a call's steps (not up to a whole spacing), and the state it
// reaches is exact; a replay of steps already computed does not move that
// checkpoint, and a call that takes no step does not leave one at the head.
func TestFirstStepBackFromTheHead(t *testing.T) {
	src, seed := benchScenario(600), uint64(3)
	s, err := Load("b.yaml", src, &seed)
	if err != nil {
		t.Fatal(err)
	}
	s.cps.every = 2048
	play(s)
	end := s.Step()
	trail := s.trailEvery()
	if trail >= s.cps.every {
		t.Fatalf("trailing distance %d, spacing %d: the run is too small to show it", trail, s.cps.every)
	}
	sc := s.cps.scratch
	if sc == nil || end-sc.sim.Step() > trail+playCall {
		t.Fatalf("checkpoints %+v: none within %d steps of the end %d", s.CheckpointStats(), trail+playCall, end)
	}
	replayed := 0
	s.SetStepObserver(func(sim.StepInfo) { replayed++ })
	if err := s.Seek(end - 1); err != nil {
		t.Fatal(err)
	}
	if replayed >= trail+playCall {
		t.Fatalf("%d steps replayed for the first step back, want fewer than %d", replayed, trail+playCall)
	}
	ref := &reference{t: t, src: src, seed: seed}
	same(t, "first step back", s, ref.at(end-1, true))
	at := s.cps.scratch.sim.Step()
	if err := s.Seek(end / 2); err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(end); err != nil {
		t.Fatal(err)
	}
	if c := s.cps.scratch; c == nil || c.sim.Step() != at {
		t.Fatalf("a replay moved the scratch checkpoint from step %d to %+v", at, s.CheckpointStats())
	}
	// At the end, a call that takes no step leaves no checkpoint at the
	// head: with none before (the last spaced one is over trail steps
	// behind, so one is due), and with an older scratch one, which stays.
	if last := s.cps.list[len(s.cps.list)-1].sim.Step(); end-last < trail {
		t.Fatalf("the last spaced checkpoint, at %d, is within %d steps of the end %d: none would be due", last, trail, end)
	}
	s.dropScratch()
	bytes := s.cps.bytes
	if got := s.Advance(ByEvent, 1); len(got) != 0 || s.cps.scratch != nil || s.cps.bytes != bytes {
		t.Fatalf("a call at the end took %d steps and left %+v (%d bytes, was %d)", len(got), s.CheckpointStats(), s.cps.bytes, bytes)
	}
	if err := s.Seek(end - 3*trail); err != nil { // a long step back leaves no scratch; this seek is not one
		t.Fatal(err)
	}
	s.setScratch()
	old, bytes := s.cps.scratch, s.cps.bytes
	if err := s.Seek(end); err != nil {
		t.Fatal(err)
	}
	if got := s.Advance(ByEvent, 1); len(got) != 0 || s.cps.scratch != old || s.cps.bytes != bytes {
		t.Fatalf("a call at the end took %d steps and left %+v (%d bytes, was %d), not the scratch checkpoint at %d", len(got), s.CheckpointStats(), s.cps.bytes, bytes, old.sim.Step())
	}
}
