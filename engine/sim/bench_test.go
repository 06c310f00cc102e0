package sim_test

import (
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// benchDeployment is a Deployment of n replicas with the API defaults (25%
// surge and unavailability).
func benchDeployment(n int32, image string) *appsv1.Deployment {
	lbl := map[string]string{"app": "web"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: lbl},
		Spec: appsv1.DeploymentSpec{
			Replicas: &n,
			Selector: &metav1.LabelSelector{MatchLabels: lbl},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: lbl},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}},
			},
		},
	}
}

// newBenchSim returns a simulation with room for n replicas plus surge.
func newBenchSim(b *testing.B, n int) *sim.Sim {
	b.Helper()
	opts := sim.DefaultOptions(1)
	opts.Limits.MaxPods = 2*n + 100
	s, err := sim.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// do runs one kubectl action on s at the current instant.
func do(b *testing.B, s *sim.Sim, name string, fn func(k *kubectl.Kubectl) (string, error)) {
	b.Helper()
	err := s.Do(&sim.Action{Name: name, Do: func(s *sim.Sim) (string, error) {
		return fn(kubectl.New(s.Server(), s.Clock()))
	}})
	if err != nil {
		b.Fatal(err)
	}
}

// settleAll settles s and fails unless it went idle.
func settleAll(b *testing.B, s *sim.Sim) int {
	b.Helper()
	n, idle := s.Settle(10_000_000)
	if !idle || s.Err() != nil {
		b.Fatalf("did not settle after %d steps: err=%v", n, s.Err())
	}
	return n
}

// rolledOut reports whether every replica of deployment web runs the new
// template and is available.
func rolledOut(b *testing.B, s *sim.Sim, n int32) {
	b.Helper()
	d, err := s.Server().GetDeployment("default", "web")
	if err != nil {
		b.Fatal(err)
	}
	st := d.Status
	if st.UpdatedReplicas != n || st.AvailableReplicas != n || st.Replicas != n || st.ObservedGeneration != d.Generation {
		b.Fatalf("rollout incomplete: %+v (generation %d)", st, d.Generation)
	}
}

// benchRollingUpdate measures the Settle of an image change of an n-replica
// Deployment whose pods are all available, to completion, in memory a
// same-size rollout has used before (readyToRoll, warmMemory). It reports
// the page faults of the timed rollouts (faults/op), about none.
func benchRollingUpdate(b *testing.B, n int32) {
	b.ReportAllocs()
	var steps, records int
	var faults int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := readyToRoll(b, n, warmMemory)
		before := s.Recorder().Len()
		f0 := pageFaults()
		b.StartTimer()
		steps += settleAll(b, s)
		b.StopTimer()
		faults += pageFaults() - f0
		records += s.Recorder().Len() - before
		rolledOut(b, s, n)
		b.StartTimer()
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
	b.ReportMetric(float64(records)/float64(b.N), "records/op")
	if pageFaults() >= 0 {
		b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
	}
}

// memoryState is what the heap holds when a timed rollout starts.
type memoryState int

const (
	// warmMemory: a rollout of the same size ran just before (untimed) and
	// the heap was collected, so the pages the timed rollout grows into are
	// mapped already. It is what the engine costs once the process has run
	// a scenario of that size: the browser's Worker, whose wasm memory is
	// never handed back to the operating system, runs one scenario after
	// another. It does not depend on what ran before, as a bare collection
	// would (a 1k rollout after a 10k one reused pages the 10k run had
	// touched, a 10k rollout after a 1k one did not).
	warmMemory memoryState = iota
	// coldMemory: the heap was collected and its free memory returned to
	// the operating system, so the rollout grows into pages it must fault
	// in, as a new process does (`rolloutlab run`). On this 2-core VM a
	// first touch costs about 11 µs (BenchmarkFirstTouch), 20 to 50 times
	// a bare-metal Linux's, and the 1k rollout's ~1,800 faults are a third
	// of its time.
	coldMemory
)

// readyToRoll returns a simulation holding an n-replica Deployment whose
// pods are all available, its image just changed, with the heap collected
// as mem says. The set-up (creating n pods) leaves garbage in proportion to
// n, and a collection it started would otherwise run on into the timed
// rollout, at a point that varies from run to run (the rollout's own
// collections are timed).
func readyToRoll(b *testing.B, n int32, mem memoryState) *sim.Sim {
	if mem == warmMemory {
		s := createAndSetImage(b, n)
		settleAll(b, s)
		rolledOut(b, s, n)
	}
	s := createAndSetImage(b, n)
	if mem == warmMemory {
		runtime.GC()
	} else {
		debug.FreeOSMemory()
	}
	return s
}

// createAndSetImage returns a simulation holding an n-replica Deployment
// whose pods are all available, its image just changed.
func createAndSetImage(b *testing.B, n int32) *sim.Sim {
	s := newBenchSim(b, int(n))
	do(b, s, "create deployment/web", func(k *kubectl.Kubectl) (string, error) { return k.Apply(benchDeployment(n, "nginx:1.25")) })
	settleAll(b, s)
	rolledOut(b, s, n)
	do(b, s, "set image", func(k *kubectl.Kubectl) (string, error) { return k.SetImage("default", "web", "web", "nginx:1.26") })
	return s
}

// BenchmarkRollingUpdateRatio measures the 10k/1k ratio of issue #10 in a
// way this shared 2-core machine's drift does not decide: each op runs the
// 1,000- and the 10,000-replica rolling update of the benchmarks below in
// turn (which one first alternates), each in warm memory, and then each
// again in cold memory (see memoryState), timing the rollouts alone. It
// reports the ratio of the median 10k time to the median 1k time in warm
// memory (ratio), the medians (1k-ms, 10k-ms; cold: 1k-cold-ms,
// 10k-cold-ms), the lowest and highest ratio of one op's warm pair
// (pair-min, pair-max), and, where the system counts them, the median page
// faults of each (1k-faults, 10k-faults, 1k-cold-faults, 10k-cold-faults).
// Run with -benchtime Nx (scripts/bench-engine.sh: 7x); ns/op counts the
// set-up.
func BenchmarkRollingUpdateRatio(b *testing.B) {
	type runs struct {
		times  []time.Duration
		faults []int64
	}
	var warm, cold [2]runs // [0]: 1k, [1]: 10k
	for i := 0; b.Loop(); i++ {
		order := []int32{1000, 10000}
		if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, mem := range []memoryState{warmMemory, coldMemory} {
			for _, n := range order {
				s := readyToRoll(b, n, mem)
				f0 := pageFaults()
				t0 := time.Now()
				settleAll(b, s)
				d := time.Since(t0)
				f := pageFaults() - f0
				rolledOut(b, s, n)
				into := &warm
				if mem == coldMemory {
					into = &cold
				}
				r := &into[0]
				if n == 10000 {
					r = &into[1]
				}
				r.times, r.faults = append(r.times, d), append(r.faults, f)
			}
		}
	}
	pairMin, pairMax := math.Inf(1), 0.0
	for i := range warm[0].times {
		r := float64(warm[1].times[i]) / float64(warm[0].times[i])
		pairMin, pairMax = min(pairMin, r), max(pairMax, r)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
	m1, m10 := median(warm[0].times), median(warm[1].times)
	b.ReportMetric(float64(m10)/float64(m1), "ratio")
	b.ReportMetric(ms(m1), "1k-ms")
	b.ReportMetric(ms(m10), "10k-ms")
	b.ReportMetric(ms(median(cold[0].times)), "1k-cold-ms")
	b.ReportMetric(ms(median(cold[1].times)), "10k-cold-ms")
	b.ReportMetric(pairMin, "pair-min")
	b.ReportMetric(pairMax, "pair-max")
	if pageFaults() >= 0 {
		b.ReportMetric(float64(median(warm[0].faults)), "1k-faults")
		b.ReportMetric(float64(median(warm[1].faults)), "10k-faults")
		b.ReportMetric(float64(median(cold[0].faults)), "1k-cold-faults")
		b.ReportMetric(float64(median(cold[1].faults)), "10k-cold-faults")
	}
}

// median returns the median of vs (the mean of the middle two for an even
// count).
func median[T ~int64](vs []T) T {
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchmarkRollingUpdate1000 is the reference run: a 1,000-replica rolling
// update to completion (issue #10's goal: 40 ms native, wasm within 5x),
// in warm memory (see memoryState; BenchmarkRollingUpdateRatio also times
// it in cold memory, as a new process runs it). scripts/bench-engine.sh
// prints it with the 10k run, their ratio and the allocation per step
// (B/op over steps/op).
func BenchmarkRollingUpdate1000(b *testing.B) { benchRollingUpdate(b, 1000) }

// BenchmarkRollingUpdate10000 checks linear growth (goal: 400 ms native,
// at most 10.5x the 1k run measured in the same run), in warm memory as
// BenchmarkRollingUpdate1000.
func BenchmarkRollingUpdate10000(b *testing.B) { benchRollingUpdate(b, 10000) }

// BenchmarkStepsPerSecond runs the library's reference scenario (a 10-replica
// rolling update, maxSurge 3, maxUnavailable 2) from creation to completion
// and reports the step rate.
func BenchmarkStepsPerSecond(b *testing.B) {
	b.ReportAllocs()
	steps := 0
	for i := 0; i < b.N; i++ {
		s := newBenchSim(b, 10)
		d := benchDeployment(10, "nginx:1.25")
		surge, unavail := intOrString(3), intOrString(2)
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavail}}
		do(b, s, "create deployment/web", func(k *kubectl.Kubectl) (string, error) { return k.Apply(d) })
		steps += settleAll(b, s)
		do(b, s, "set image", func(k *kubectl.Kubectl) (string, error) { return k.SetImage("default", "web", "web", "nginx:1.26") })
		steps += settleAll(b, s)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
}

func intOrString(v int) intstr.IntOrString { return intstr.FromInt32(int32(v)) }
