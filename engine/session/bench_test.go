package session

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// benchScenario is a Deployment of n replicas whose image changes once the
// first rollout completes.
func benchScenario(n int) []byte {
	return fmt.Appendf(nil, `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata:
  name: bench-%d
spec:
  seed: 3
  limits: {maxPods: 15000}
  timeline:
    - when: {rolloutComplete: deployment/web}
      action: setImage
      target: deployment/web
      image: nginx:1.26
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`, n, n)
}

// benchDeployment is the same Deployment without a timeline.
func benchDeployment(n int) []byte {
	return fmt.Appendf(nil, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`, n)
}

func loadBench(tb testing.TB, src []byte) *Session {
	tb.Helper()
	s, err := Load("bench.yaml", src, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// Rewind benchmarks: a run of about 1k, 10k or 100k steps (a Deployment of
// 60, 600 or 7,800 replicas created, then rolled out to a new image) is
// computed to the end; then each op seeks to a random step of it
// (BenchmarkSeek) or steps back at the end (BenchmarkStepBack,
// BenchmarkFirstStepBack). The
// checkpoint memory is reported as ckpt-MB (heap freed when every
// checkpoint but the first is dropped), with the checkpoints' count and
// spacing in steps.
var seekRuns = []struct {
	name     string
	replicas int
}{{"steps=1k", 60}, {"steps=10k", 600}, {"steps=100k", 7800}}

// warmUpSeek runs a few hundred seeks on a small run, once per process:
// under js/wasm the engine's code is first run by a baseline compiler and
// optimised in the background, which made the first benchmark ten times
// slower than the next ones. A page that has been used is warm.
var warmUpSeek = sync.OnceFunc(func() {
	s, err := Load("warm.yaml", benchScenario(60), nil)
	if err != nil {
		panic(err)
	}
	s.RunToEnd()
	r := rng.New(2).Stream("warm")
	for i := 0; i < 300; i++ {
		_ = s.Seek(r.Intn(s.MaxStep() + 1))
	}
})

// eachSeekRun runs body as a sub-benchmark per run of seekRuns, on a
// session computed to the end of that run (untimed), reporting allocations
// and, after body, the checkpoints (reportCheckpoints) when report is set.
//
// The run is followed by a garbage collection, as the page's Worker runs
// one when idle between computing a run and a seek once the heap has used
// half the collector's allowance (wasm/idle.go; a long run's has). Under js/wasm the collector has a single
// thread and no background time while Go code runs, so a cycle started
// during the run was marked only by allocation assists: it lasted the
// whole run, the heap reached 860 MB for 280 MB live, and its goal let the
// timed seeks allocate fresh memory. Every 4 MB of fresh wasm memory is a
// memory.grow, which V8 follows with a garbage collection of its own
// (node --trace-gc: 1,290 in one benchmark), plus first-touch page faults
// (node --cpu-prof: runtime.growMemory 19% and V8's collector 18.5% of the
// 100k-step seeks). That measured wasm seeks at 170-320 ms for 80-115 ms
// once collected (native: no change within noise). Enough seeks to start
// the next cycle (about 40 here, 12.6 MB each) overshoot and grow the heap
// again the same way: 190 ms a seek averaged over 40 (that was before
// growHeap, which the seek and step-back benchmarks call first).
func eachSeekRun(b *testing.B, report bool, body func(b *testing.B, s *Session)) {
	for _, run := range seekRuns {
		b.Run(run.name, func(b *testing.B) {
			s := loadBench(b, benchScenario(run.replicas))
			play(s)
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			body(b, s)
			if report {
				// The layout as body left it (BenchmarkSeekWorstRefined
				// refines it first).
				b.ReportMetric(meanReplayRecords(s), "replay-rec")
				reportCheckpoints(b, s)
			}
		})
	}
}

// growHeap seeks s to random steps (untimed) with no collection between
// them, until the collector has completed two cycles or 400 seeks were
// made, then seeks back to the end, puts back the trailing checkpoint play
// left (trailHead) and collects. The heap has then grown to the size its
// collections let it reach, and the timed seeks reuse memory the process
// holds, as a page's Worker does once it has been used (wasm memory is
// never handed back; Go's native scavenger hands free pages back). The
// seeks that grow the heap touch pages never touched before, and on this
// VM each first touch costs about 11 µs (engine/sim's BenchmarkFirstTouch):
// before growHeap, the slowest seeks of BenchmarkSeekWorst in a 100k-step
// run were those with 800-1,200 page faults (17-30 ms), the others took
// 7-13 ms. Those seeks are reported, not hidden: growth-seeks (how many),
// growth-worst-ms (the slowest) and growth-max-faults (the most page
// faults one took), by growth.report after the timed loop (b.Loop's first
// call deletes the metrics reported before it). It fails when the
// checkpoints differ afterwards.
func growHeap(b *testing.B, s *Session) growth {
	b.StopTimer()
	defer b.StartTimer()
	before := s.CheckpointStats()
	trailing := s.cps.scratch
	end := s.Step()
	start := numGC()
	r := rng.New(3).Stream("grow-heap")
	var worst time.Duration
	var worstFaults int64
	n := 0
	for ; n < 400 && numGC() < start+2; n++ {
		f0 := pageFaults()
		t0 := time.Now()
		if err := s.Seek(r.Intn(end + 1)); err != nil {
			b.Fatal(err)
		}
		worst = max(worst, time.Since(t0))
		worstFaults = max(worstFaults, pageFaults()-f0)
	}
	if err := s.Seek(end); err != nil {
		b.Fatal(err)
	}
	s.dropScratch()
	if trailing != nil {
		s.cps.scratch = trailing
		s.cps.sumBytes()
	}
	if after := s.CheckpointStats(); !reflect.DeepEqual(before, after) {
		b.Fatalf("growHeap changed the checkpoints: %+v, then %+v", before, after)
	}
	runtime.GC()
	return growth{seeks: n, worst: worst, faults: worstFaults}
}

// growth is what growHeap's seeks took.
type growth struct {
	seeks  int
	worst  time.Duration
	faults int64 // the most page faults one seek took
}

// report reports g as growth-seeks, growth-worst-ms and growth-max-faults.
func (g growth) report(b *testing.B) {
	b.ReportMetric(float64(g.seeks), "growth-seeks")
	b.ReportMetric(float64(g.worst.Microseconds())/1e3, "growth-worst-ms")
	if pageFaults() >= 0 {
		b.ReportMetric(float64(g.faults), "growth-max-faults")
	}
}

// play runs s to its end the way the page plays it: a few steps per call
// (see trailHead).
func play(s *Session) {
	for len(s.Advance(ByEvent, playCall)) > 0 {
	}
}

// playCall is the steps per call of play: the page's fastest play takes 8
// per call (240 steps per second); 100 keeps the set-up short.
const playCall = 100

func BenchmarkSeek(b *testing.B) {
	warmUpSeek()
	eachSeekRun(b, true, func(b *testing.B, s *Session) {
		g := growHeap(b, s)
		defer func() { g.report(b) }()
		steps := s.Step()
		r := rng.New(1).Stream("seek")
		for b.Loop() {
			if err := s.Seek(r.Intn(steps + 1)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSeekWorst times seeks to the last step of a gap between
// checkpoints (seekGaps), from the far end of the run: such a seek restores
// the checkpoint that starts the gap and replays all of it, the most any
// seek into that gap replays. The ops take the gaps from the most trace
// records replayed to the fewest (so that a few iterations, as under
// js/wasm, still time the largest), over and over, every other op seeking
// one of the slowestGaps gaps with the most records instead. The heap has
// grown first (growHeap: the seeks that grew it are in growth-worst-ms and
// growth-max-faults). It reports the slowest timed seek (worst-ms, what a
// seek to any step can take once the heap has grown, including this shared
// machine's worst moment; worst-again-ms, the median of three more seeks
// to its step, tells a slow step from a slow moment), the slowest of those gaps by the
// median of its seeks (slowest-gap-ms, once each was timed three times),
// the mean of all seeks (ns/op: half of them to those gaps, so it is
// higher than when the ops cycled through every gap alone), the most
// records a gap replays (gap-rec) and the longest gap in steps
// (gap-steps).
//
// Between two seeks (untimed), it collects the heap when the page's Worker
// would, idle after a seek: once the heap has used half of the growth the
// collector allows (wasm/idle.go). A user who picks steps on the chart or
// the timeline pauses between picks. A cycle the collector starts during
// a seek all the same (the seek's own allocation) makes it slower by part
// of that cycle, which marks the whole heap (over 300 MB here) with the
// seek's help: gc-seeks counts the seeks during which a cycle ended, and
// worst-nogc-ms is the slowest of the others; max-faults is the most page
// faults one timed seek took (Linux). Just before the seeks it also times
// a fixed computation (machineNoise) and reports its slowest time over its
// median (noise-max-ratio): how much slower this shared machine made its
// worst moment in the same minutes, against which worst-ms, the slowest of
// a hundred or more seeks, is read. BenchmarkSeekWorstBackToBack seeks
// with no pause between them, as a drag on the slider does: the
// collector's cycles then fall in seeks, every 40 or so.
func BenchmarkSeekWorst(b *testing.B) { benchSeekWorst(b, false, true) }

// BenchmarkSeekWorstRefined is BenchmarkSeekWorst after the idle work of
// RefineCheckpoints (untimed: refine-ms, in refine-calls calls), as a page
// left alone for a few seconds has done it, and after growHeap again (the
// new checkpoints hold more of the heap; the growth-* metrics are those
// of this second growth).
func BenchmarkSeekWorstRefined(b *testing.B) { benchSeekWorst(b, true, true) }

// BenchmarkSeekWorstBackToBack is BenchmarkSeekWorst with no collection
// between the seeks.
func BenchmarkSeekWorstBackToBack(b *testing.B) { benchSeekWorst(b, false, false) }

// collectWhenIdle collects the heap as the page's Worker does when idle
// (wasm/idle.go): once the heap has used half of the growth the collector
// allows before its next cycle.
func collectWhenIdle() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.HeapAlloc >= m.NextGC/4*3 {
		runtime.GC()
	}
}

func benchSeekWorst(b *testing.B, refine, idle bool) {
	warmUpSeek()
	eachSeekRun(b, true, func(b *testing.B, s *Session) {
		g := growHeap(b, s)
		defer func() { g.report(b) }()
		var refineTime time.Duration
		calls := 0
		if refine {
			b.StopTimer()
			t0 := time.Now()
			for s.RefineCheckpoints() {
				calls++
			}
			refineTime = time.Since(t0)
			b.StartTimer()
			// The new checkpoints hold more of the heap: let it grow
			// again. growHeap ends with a collection, as the page's Worker
			// collects after refining (wasm/idle.go).
			g = growHeap(b, s)
		}
		end := s.Step()
		gaps := seekGaps(s)
		gapSteps := 0
		for _, g := range gaps {
			gapSteps = max(gapSteps, g.last-g.from)
		}
		slices.SortStableFunc(gaps, func(x, y seekGap) int { return y.records - x.records })
		var worst, worstNoGC time.Duration
		worstTarget := -1
		var worstFaults int64
		gcSeeks := 0
		// Every other op seeks the end of one of the largest gaps, in
		// turn, so that each of them is timed often enough for a median
		// (slowest-gap-ms): the largest single seek (worst-ms) also
		// measures the machine's worst moment.
		largest := gaps[:min(slowestGaps, len(gaps))]
		timed := make([][]time.Duration, len(largest))
		noise := machineNoise()
		for i := 0; b.Loop(); i++ {
			gi := (i / 2) % len(gaps)
			if i%2 == 1 {
				gi = (i / 2) % len(largest)
			}
			target := gaps[gi].last
			b.StopTimer()
			// Start each seek at the other end of the run, away from the
			// target, and with no scratch checkpoint.
			far := 0
			if target < end/2 {
				far = end
			}
			if err := s.Seek(far); err != nil {
				b.Fatal(err)
			}
			s.dropScratch()
			if idle {
				collectWhenIdle()
			}
			gcBefore := numGC()
			f0 := pageFaults()
			b.StartTimer()
			t0 := time.Now()
			if err := s.Seek(target); err != nil {
				b.Fatal(err)
			}
			d := time.Since(t0)
			b.StopTimer()
			worstFaults = max(worstFaults, pageFaults()-f0)
			if gi < len(largest) {
				timed[gi] = append(timed[gi], d)
			}
			if d > worst {
				worst, worstTarget = d, target
			}
			if numGC() == gcBefore {
				worstNoGC = max(worstNoGC, d)
			} else {
				gcSeeks++
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(gapSteps), "gap-steps")
		b.ReportMetric(float64(gaps[0].records), "gap-rec")
		b.ReportMetric(float64(worst.Microseconds())/1e3, "worst-ms")
		if again, ok := seekAgain(b, s, worstTarget, end, idle); ok {
			b.ReportMetric(float64(again.Microseconds())/1e3, "worst-again-ms")
		}
		if slowest, ok := slowestMedian(timed); ok {
			b.ReportMetric(float64(slowest.Microseconds())/1e3, "slowest-gap-ms")
		}
		b.ReportMetric(float64(worstNoGC.Microseconds())/1e3, "worst-nogc-ms")
		b.ReportMetric(noise, "noise-max-ratio")
		b.ReportMetric(float64(gcSeeks), "gc-seeks")
		if pageFaults() >= 0 {
			b.ReportMetric(float64(worstFaults), "max-faults")
		}
		if refine {
			b.ReportMetric(float64(refineTime.Microseconds())/1e3, "refine-ms")
			b.ReportMetric(float64(calls), "refine-calls")
		}
	})
}

// seekAgain times three more seeks to target, from the far end of the run
// as benchSeekWorst's are, after its timed loop, and returns their median
// (worst-again-ms). For the target of the slowest timed seek (worst-ms) it
// tells a step that is slow to reach from a moment the machine was slow:
// the same replay, timed again.
func seekAgain(b *testing.B, s *Session, target, end int, idle bool) (time.Duration, bool) {
	if target < 0 {
		return 0, false
	}
	far := 0
	if target < end/2 {
		far = end
	}
	var ds []time.Duration
	for range 3 {
		if err := s.Seek(far); err != nil {
			b.Fatal(err)
		}
		s.dropScratch()
		if idle {
			collectWhenIdle()
		}
		t0 := time.Now()
		if err := s.Seek(target); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	slices.Sort(ds)
	return ds[1], true
}

// slowestGaps is how many of the gaps replaying the most records
// BenchmarkSeekWorst times every other op.
const slowestGaps = 5

// slowestMedian returns the largest of the median times of each gap's
// seeks, when every gap was timed at least three times.
func slowestMedian(timed [][]time.Duration) (time.Duration, bool) {
	var out time.Duration
	for _, ds := range timed {
		if len(ds) < 3 {
			return 0, false
		}
		ds = slices.Clone(ds)
		slices.Sort(ds)
		out = max(out, ds[len(ds)/2])
	}
	return out, len(timed) > 0
}

// spinSink keeps spin's result alive, so that its loop is not removed.
var spinSink uint64

// spinRounds is spin's work: about 4 ms of arithmetic on this machine.
const spinRounds = 4_000_000

// machineNoise times spin 150 times, a millisecond apart, after a
// collection (no cycle of the collector runs meanwhile), and returns the
// slowest time over the median: what the machine, not the engine, adds to
// a computation of a few milliseconds at its worst moment.
func machineNoise() float64 {
	runtime.GC()
	ds := make([]time.Duration, 150)
	for i := range ds {
		ds[i] = spin()
		time.Sleep(time.Millisecond)
	}
	slices.Sort(ds)
	return float64(ds[len(ds)-1]) / float64(ds[len(ds)/2])
}

// spin times a fixed computation that touches no memory (a generator's
// rounds).
func spin() time.Duration {
	t0 := time.Now()
	x := spinSink | 1
	for range spinRounds {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 29
	}
	spinSink = x
	return time.Since(t0)
}

// numGC returns the number of garbage collection cycles completed.
func numGC() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumGC
}

// seekGap is the stretch of a run between a spaced checkpoint (at step
// from) and the step before the next one (last, or the end of the run): a
// seek to last restores the checkpoint and replays the gap's steps, which
// write records trace records (as many as any seek into the gap replays).
type seekGap struct{ from, last, records int }

// seekGaps lists the gaps between the spaced checkpoints of s, the last
// one's (to the end of the run) included.
func seekGaps(s *Session) []seekGap {
	var gaps []seekGap
	for i, c := range s.cps.list {
		if last := s.gapEnd(i); last > c.sim.Step() {
			gaps = append(gaps, seekGap{c.sim.Step(), last, s.replayOf(i)})
		}
	}
	return gaps
}

func BenchmarkStepBack(b *testing.B) {
	warmUpSeek()
	eachSeekRun(b, true, func(b *testing.B, s *Session) {
		g := growHeap(b, s)
		defer func() { g.report(b) }()
		end := s.Step()
		// Each op is one press of "step back", from the end down to
		// end-presses; then the run is played to the end again (untimed)
		// and the presses start over. The first press of a round replays
		// from a spaced checkpoint, the next ones from the scratch
		// checkpoint it left.
		const presses = 100
		i := 0
		for b.Loop() {
			if i%presses == 0 {
				b.StopTimer()
				if err := s.Seek(end); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			i++
			if err := s.Seek(end - 1 - i%presses); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFirstStepBack times the first step back at the end of the run,
// as playing it left it: from the scratch checkpoint trailing its head
// (see trailHead). BenchmarkFirstStepBackSpaced times the same press with no
// scratch checkpoint: the worst case, which replays from the last spaced
// checkpoint.
func BenchmarkFirstStepBack(b *testing.B)       { benchFirstStepBack(b, false) }
func BenchmarkFirstStepBackSpaced(b *testing.B) { benchFirstStepBack(b, true) }

func benchFirstStepBack(b *testing.B, spaced bool) {
	warmUpSeek()
	eachSeekRun(b, true, func(b *testing.B, s *Session) {
		g := growHeap(b, s)
		defer func() { g.report(b) }()
		end := s.Step()
		trailing := s.cps.scratch
		for b.Loop() {
			b.StopTimer()
			s.dropScratch()
			if trailing != nil && !spaced {
				s.cps.scratch = trailing
				s.cps.sumBytes()
			}
			if err := s.Seek(end); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := s.Seek(end - 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRestore times the restore alone (Sim.Restore, no replay): each
// op restores the last checkpoint of the run or the one two before it, in
// turn, so every restore changes what a spacing's worth of steps changed.
func BenchmarkRestore(b *testing.B) {
	eachSeekRun(b, true, func(b *testing.B, s *Session) {
		n := len(s.cps.list)
		if n < 3 {
			b.Skipf("%d checkpoints", n)
		}
		pair := [2]*checkpoint{&s.cps.list[n-3], &s.cps.list[n-1]}
		for i := 0; b.Loop(); i++ {
			s.sim.Restore(pair[i%2].sim)
		}
	})
}

// BenchmarkCheckpoint times taking a checkpoint (Sim.CheckpointAfter the
// one before) half-way through the run.
func BenchmarkCheckpoint(b *testing.B) {
	eachSeekRun(b, false, func(b *testing.B, s *Session) {
		if err := s.Seek(s.Step() / 2); err != nil {
			b.Fatal(err)
		}
		prev := s.cps.nearest(s.Step())
		for b.Loop() {
			_ = s.sim.CheckpointAfter(prev.sim)
		}
	})
}

// BenchmarkCheckpointMemory runs the 100k-step run with checkpoints at a
// fixed spacing and no budget, and reports their estimated size
// (sim.Checkpoint.ApproxBytes, est-MB) next to the heap they hold
// (ckpt-MB): the calibration of the estimate, which the budget relies on.
func BenchmarkCheckpointMemory(b *testing.B) {
	for _, every := range []int{4096, 8192, 16384} {
		b.Run(fmt.Sprintf("every=%d", every), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s := loadBench(b, benchScenario(seekRuns[len(seekRuns)-1].replicas))
				s.cps.every, s.cps.max, s.cps.budget = every, 1<<20, 1<<50
				b.StartTimer()
				s.RunToEnd()
				b.StopTimer()
				if s.cps.every != every {
					b.Fatalf("spacing widened to %d", s.cps.every)
				}
				b.ReportMetric(float64(s.CheckpointStats().ApproxBytes)/1e6, "est-MB")
				// The sums the estimate is fitted on: objects stored and
				// objects changed since the checkpoint before, over every
				// checkpoint.
				objects, changed := 0, 0
				for _, c := range s.cps.list {
					objects += c.sim.Objects()
					changed += c.sim.Changed()
				}
				b.ReportMetric(float64(objects), "sum-objects")
				b.ReportMetric(float64(changed), "sum-changed")
				reportCheckpoints(b, s)
				b.StartTimer()
			}
		})
	}
}

// reportCheckpoints reports the run's length and the checkpoints' count,
// spacing and memory.
func reportCheckpoints(b *testing.B, s *Session) {
	b.StopTimer()
	st := s.CheckpointStats()
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	// At step 0 the live state shares nothing with the later checkpoints
	// (at the end it shares the last one's versions), so what they hold
	// is all freed below.
	if err := s.Seek(0); err != nil {
		b.Fatal(err)
	}
	s.dropScratch()
	before := heap()
	s.dropCheckpointsAfter(0)
	after := heap()
	b.ReportMetric(float64(s.MaxStep()), "steps")
	b.ReportMetric(float64(st.Count), "ckpts")
	b.ReportMetric(float64(st.Every), "ckpt-every")
	b.ReportMetric(float64(int64(before)-int64(after))/1e6, "ckpt-MB")
}

// meanReplayRecords is what the checkpoints kept make a seek to a
// uniformly drawn step replay, on average, in trace records (a measure of
// the checkpoint layout that machine load does not move): a target in a
// gap of s steps and r records replays about half of r, weighted by s.
// The scratch checkpoint is left out (it serves the steps near it).
func meanReplayRecords(s *Session) float64 {
	list, end := s.cps.list, s.MaxStep()
	recs := s.recordsThrough(end)
	sum := 0.0
	for i := range list {
		nextStep, nextRecs := end, recs
		if i+1 < len(list) {
			nextStep, nextRecs = list[i+1].sim.Step(), list[i+1].sim.Records()
		}
		sum += float64(nextStep-list[i].sim.Step()) * float64(nextRecs-list[i].sim.Records()) / 2
	}
	return sum / float64(max(end, 1))
}

// BenchmarkView1000 builds the View of a settled 1,000-pod cluster.
func BenchmarkView1000(b *testing.B) {
	s := loadBench(b, benchDeployment(1000))
	s.Advance(BySettle, 1)
	if got := len(s.Sim().Server().ListPods("", nil)); got != 1000 {
		b.Fatalf("%d pods, want 1000", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		if v := s.View(ViewOptions{}); len(v.Pods) != 1000 {
			b.Fatalf("%d pods in view", len(v.Pods))
		}
	}
}

// BenchmarkStepView1000 times steps of a 1,000-replica rolling update
// together with the View the UI would render after them (the engine part of
// the per-frame budget) and reports the 95th percentile. Every step runs; one
// in viewEvery is timed with its View, to keep the benchmark short.
func BenchmarkStepView1000(b *testing.B) {
	const viewEvery = 10
	b.ReportAllocs()
	var perStep []time.Duration
	total := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := loadBench(b, benchDeployment(1000))
		s.Advance(BySettle, 1)
		setImage := scenario.Action{Type: scenario.ActionSetImage, Image: "nginx:1.26",
			Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}}
		if _, err := s.Apply(setImage); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for n := 0; ; n++ {
			if n%viewEvery != 0 {
				if len(s.Advance(ByEvent, 1)) == 0 {
					break
				}
				total++
				continue
			}
			t0 := time.Now()
			if len(s.Advance(ByEvent, 1)) == 0 {
				break
			}
			_ = s.View(ViewOptions{})
			perStep = append(perStep, time.Since(t0))
			total++
		}
	}
	sort.Slice(perStep, func(i, j int) bool { return perStep[i] < perStep[j] })
	if len(perStep) > 0 {
		b.ReportMetric(float64(perStep[len(perStep)*95/100].Microseconds()), "p95-µs/step")
		b.ReportMetric(float64(perStep[len(perStep)-1].Microseconds()), "max-µs/step")
	}
	b.ReportMetric(float64(total)/float64(b.N), "steps/op")
}
