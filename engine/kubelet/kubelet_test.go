package kubelet

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

type fixture struct {
	t      *testing.T
	clock  *clock.Clock
	rec    *trace.Recorder
	server *apiserver.Server
	k      *Kubelet
}

func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	root := rng.New(1)
	srv := apiserver.New(c, root.Stream("apiserver"), rec)
	k, err := New(srv, c, root.Stream("kubelet"), rec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, clock: c, rec: rec, server: srv, k: k}
}

// runFor fires every transition due within d, observing writes after each.
func (f *fixture) runFor(d time.Duration) []string {
	end := f.clock.Now().Add(d)
	var out []string
	for {
		f.k.Observe()
		at, ok := f.k.NextDue()
		if !ok || at.After(end) {
			break
		}
		f.clock.AdvanceTo(at)
		before := f.rec.Len()
		f.k.Step()
		for _, r := range f.rec.Records()[before:] {
			if r.Kind() == trace.KindKubelet {
				out = append(out, clock.FormatOffset(r.At)+" "+r.Data.Text())
			}
		}
	}
	f.k.Observe()
	if end.After(f.clock.Now()) {
		f.clock.AdvanceTo(end)
	}
	return out
}

func (f *fixture) createPod(name, image string) {
	f.t.Helper()
	p := &corev1.Pod{}
	p.Namespace, p.Name = "default", name
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: image}}
	if _, err := f.server.CreatePod("test", p); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) pod(name string) *corev1.Pod {
	f.t.Helper()
	p, err := f.server.GetPod("default", name)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func TestLifecycleBindStartReady(t *testing.T) {
	f := newFixture(t, Defaults())
	f.createPod("a", "nginx:1.25")
	f.createPod("b", "nginx:1.25")
	got := f.runFor(10 * time.Second)
	want := []string{
		"+0.000s pod default/a bound on node-1",
		"+0.000s pod default/b bound on node-2",
		"+2.000s pod default/a running on node-1 (restarts 0)",
		"+2.000s pod default/b running on node-2 (restarts 0)",
		"+3.000s pod default/a ready on node-1",
		"+3.000s pod default/b ready on node-2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("transitions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p := f.pod("a")
	if p.Status.Phase != corev1.PodRunning || !ready(p) || p.Spec.NodeName != "node-1" {
		t.Fatalf("pod a: phase=%s ready=%v node=%s", p.Status.Phase, ready(p), p.Spec.NodeName)
	}
}

func TestCrashLoopBackOff(t *testing.T) {
	cfg := Defaults()
	cfg.Images = map[string]ImageProfile{"bad:1": {StartDelay: time.Second, CrashLoop: true, CrashAfter: time.Second}}
	f := newFixture(t, cfg)
	f.createPod("a", "bad:1")
	got := f.runFor(60 * time.Second)
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		"+2.000s pod default/a crashed on node-1 (restart 1, back-off 10s)",
		"+12.000s pod default/a restarted on node-1 (restarts 1)",
		"+13.000s pod default/a crashed on node-1 (restart 2, back-off 20s)",
		"+33.000s pod default/a restarted on node-1 (restarts 2)",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in\n%s", want, joined)
		}
	}
	p := f.pod("a")
	if ready(p) || p.Status.ContainerStatuses[0].RestartCount != 3 {
		t.Fatalf("ready=%v restarts=%d", ready(p), p.Status.ContainerStatuses[0].RestartCount)
	}
}

func TestGracefulTermination(t *testing.T) {
	f := newFixture(t, Defaults())
	f.createPod("a", "nginx:1.25")
	f.runFor(5 * time.Second)
	if err := f.server.DeletePod("test", "default", "a", apiserver.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	got := f.runFor(5 * time.Second)
	if len(got) != 1 || got[0] != "+7.000s pod default/a terminated on node-1 (containers stopped; pod removed)" {
		t.Fatalf("transitions = %v", got)
	}
	if _, err := f.server.GetPod("default", "a"); err == nil {
		t.Fatal("pod still exists after termination")
	}
}

// oneNodeWithPodA is a cluster of node-1 alone, running pod a (ready).
func oneNodeWithPodA(t *testing.T) *fixture {
	t.Helper()
	cfg := Defaults()
	cfg.Nodes = []string{"node-1"}
	f := newFixture(t, cfg)
	f.createPod("a", "nginx:1.25")
	f.runFor(5 * time.Second)
	return f
}

func TestNodeFailureAndRecovery(t *testing.T) {
	f := oneNodeWithPodA(t)
	if err := f.k.FailNode("node-1"); err != nil {
		t.Fatal(err)
	}
	// Nothing shows for the node monitor grace period (50s since v1.32):
	// then the node's Ready turns Unknown and its pods NotReady.
	nodeReady := func() corev1.ConditionStatus {
		n, err := f.server.GetNode("", "node-1")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady {
				return c.Status
			}
		}
		return ""
	}
	f.runFor(49 * time.Second)
	if !ready(f.pod("a")) || nodeReady() != corev1.ConditionTrue {
		t.Fatalf("49s after the failure: pod ready %v, node Ready %s; want true, True", ready(f.pod("a")), nodeReady())
	}
	f.runFor(time.Second)
	if ready(f.pod("a")) || nodeReady() != corev1.ConditionUnknown {
		t.Fatalf("50s after the failure: pod ready %v, node Ready %s; want false, Unknown", ready(f.pod("a")), nodeReady())
	}
	// Eviction comes 300s after that (the pods' default toleration of
	// the unreachable taint), not 300s after the failure.
	f.runFor(299 * time.Second)
	if f.pod("a").DeletionTimestamp != nil {
		t.Fatal("pod evicted before the 300s toleration ran out")
	}
	f.runFor(time.Second)
	if f.pod("a").DeletionTimestamp == nil {
		t.Fatal("pod not evicted 350s after the failure")
	}
	// A new pod cannot be scheduled while the only node is down.
	f.createPod("b", "nginx:1.25")
	got := f.runFor(time.Second)
	if len(got) != 1 || !strings.Contains(got[0], "unschedulable") {
		t.Fatalf("transitions = %v", got)
	}
	if err := f.k.RecoverNode("node-1"); err != nil {
		t.Fatal(err)
	}
	got = f.runFor(10 * time.Second)
	joined := strings.Join(got, "\n")
	if !strings.Contains(joined, "pod default/a terminated") || !strings.Contains(joined, "pod default/b ready") {
		t.Fatalf("after recovery:\n%s", joined)
	}
	if err := f.k.FailNode("nope"); err == nil {
		t.Fatal("unknown node accepted")
	}
}

func TestJitterIsSeeded(t *testing.T) {
	run := func() []string {
		cfg := Defaults()
		cfg.Default.Jitter = time.Second
		f := newFixture(t, cfg)
		for _, n := range []string{"a", "b", "c"} {
			f.createPod(n, "nginx:1.25")
		}
		return f.runFor(10 * time.Second)
	}
	a, b := run(), run()
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatal("same seed gave different timings")
	}
}

// createProbedPod creates a pod whose container has the given probes.
func (f *fixture) createProbedPod(name, image string, readiness, liveness *corev1.Probe) {
	f.t.Helper()
	p := &corev1.Pod{}
	p.Namespace, p.Name = "default", name
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: image, ReadinessProbe: readiness, LivenessProbe: liveness}}
	if _, err := f.server.CreatePod("test", p); err != nil {
		f.t.Fatal(err)
	}
}

func probeSpec(initialDelay, period, success, failure int32) *corev1.Probe {
	return &corev1.Probe{InitialDelaySeconds: initialDelay, PeriodSeconds: period, SuccessThreshold: success, FailureThreshold: failure}
}

func wantTransitions(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("transitions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The readiness probe's fields drive the time a pod turns ready: the first
// probe at or after the application answers (start 2s + 1s = 3s after
// binding), on the probe's schedule (initialDelay 5s, period 4s: probes at
// 7s, 11s, ... after binding), after successThreshold successes.
func TestReadinessProbeFieldsDriveReadiness(t *testing.T) {
	f := newFixture(t, Defaults())
	f.createProbedPod("a", "nginx:1.25", probeSpec(5, 4, 1, 3), nil) // first probe at 2s+5s = 7s
	f.createProbedPod("b", "nginx:1.25", probeSpec(0, 4, 2, 3), nil) // probes 2s, 6s, 10s; answers at 3s: 6s, 10s
	f.createProbedPod("c", "nginx:1.25", probeSpec(0, 0, 0, 0), nil) // defaults: period 10s -> probes 2s, 12s: 12s
	got := f.runFor(20 * time.Second)
	want := []string{
		"+0.000s pod default/a bound on node-1",
		"+0.000s pod default/b bound on node-2",
		"+0.000s pod default/c bound on node-3",
		"+2.000s pod default/a running on node-1 (restarts 0)",
		"+2.000s pod default/b running on node-2 (restarts 0)",
		"+2.000s pod default/c running on node-3 (restarts 0)",
		"+7.000s pod default/a ready on node-1",
		"+10.000s pod default/b ready on node-2",
		"+12.000s pod default/c ready on node-3",
	}
	wantTransitions(t, got, want...)
}

// A hung application (profile hangAfter) fails its liveness probe: after
// failureThreshold failures the kubelet kills and restarts the container
// in the same pod (same UID, restartCount grows, back-off between
// restarts), and its readiness probe turns it NotReady first.
func TestLivenessProbeRestartsHungContainer(t *testing.T) {
	cfg := Defaults()
	cfg.Images = map[string]ImageProfile{"hang:1": {StartDelay: 2 * time.Second, ReadyDelay: time.Second, HangAfter: 20 * time.Second}}
	f := newFixture(t, cfg)
	f.createProbedPod("a", "hang:1", probeSpec(0, 5, 1, 2), probeSpec(10, 5, 1, 3))
	uid := f.pod("a").UID
	got := f.runFor(60 * time.Second)
	// Run 1 starts at 2s: ready at the probe at 5s after start (7s); hung
	// from 22s; readiness probes at 22s, 27s -> unready at 27s; liveness
	// probes at 12s, 17s, 22s, 27s, 32s -> 3rd failure at 32s: killed,
	// back-off 10s, restarted at 42s; ready again at 47s (probe 5s later).
	want := []string{
		"+0.000s pod default/a bound on node-1",
		"+2.000s pod default/a running on node-1 (restarts 0)",
		"+7.000s pod default/a ready on node-1",
		"+27.000s pod default/a unready on node-1 (readiness probe failed 2 times)",
		"+32.000s pod default/a killed on node-1 (liveness probe failed 3 times; restart 1, back-off 10s)",
		"+42.000s pod default/a restarted on node-1 (restarts 1)",
		"+47.000s pod default/a ready on node-1",
	}
	wantTransitions(t, got, want...)
	p := f.pod("a")
	if p.UID != uid || p.Status.ContainerStatuses[0].RestartCount != 1 || !ready(p) {
		t.Fatalf("uid %s (was %s) restarts %d ready %v", p.UID, uid, p.Status.ContainerStatuses[0].RestartCount, ready(p))
	}
	if term := p.Status.ContainerStatuses[0].LastTerminationState.Terminated; term == nil || term.ExitCode != 137 {
		t.Fatalf("last termination %+v, want exit code 137", p.Status.ContainerStatuses[0].LastTerminationState)
	}
	got = f.runFor(60 * time.Second)
	if !strings.Contains(strings.Join(got, "\n"), "killed on node-1 (liveness probe failed 3 times; restart 2, back-off 20s)") {
		t.Fatalf("no second restart:\n%s", strings.Join(got, "\n"))
	}
}

// Without probes a hung container goes unnoticed: it stays Ready.
func TestHungContainerWithoutProbesStaysReady(t *testing.T) {
	cfg := Defaults()
	cfg.Images = map[string]ImageProfile{"hang:1": {StartDelay: 2 * time.Second, ReadyDelay: time.Second, HangAfter: 5 * time.Second}}
	f := newFixture(t, cfg)
	f.createPod("a", "hang:1")
	got := f.runFor(120 * time.Second)
	wantTransitions(t, got,
		"+0.000s pod default/a bound on node-1",
		"+2.000s pod default/a running on node-1 (restarts 0)",
		"+3.000s pod default/a ready on node-1")
	if p := f.pod("a"); !ready(p) || p.Status.ContainerStatuses[0].RestartCount != 0 {
		t.Fatal("a hung pod without probes changed state")
	}
}

// A liveness probe that gives up before the application answers
// (initialDelaySeconds 0, period 1s, failureThreshold 2, but the app needs
// 5s) kills the container on every start: it never becomes ready and its
// restarts back off.
func TestLivenessProbeTooEarlyKillsEveryStart(t *testing.T) {
	cfg := Defaults()
	cfg.Images = map[string]ImageProfile{"slow:1": {StartDelay: time.Second, ReadyDelay: 5 * time.Second}}
	f := newFixture(t, cfg)
	f.createProbedPod("a", "slow:1", nil, probeSpec(0, 1, 1, 2))
	got := f.runFor(30 * time.Second)
	wantTransitions(t, got,
		"+0.000s pod default/a bound on node-1",
		"+1.000s pod default/a running on node-1 (restarts 0)",
		"+2.000s pod default/a killed on node-1 (liveness probe failed 2 times; restart 1, back-off 10s)",
		"+12.000s pod default/a restarted on node-1 (restarts 1)",
		"+13.000s pod default/a killed on node-1 (liveness probe failed 2 times; restart 2, back-off 20s)")
	if ready(f.pod("a")) {
		t.Fatal("ready despite its liveness probe")
	}
}

func TestIsSimID(t *testing.T) {
	for _, c := range []struct {
		id, a, b, c string
		want        bool
	}{
		{"sim://nginx:1.25", "nginx:1.25", "", "", true},
		{"sim://nginx:1.26", "nginx:1.25", "", "", false},
		{"sim://web-1/web", "web-1", "/", "web", true},
		{"sim://web-1/wex", "web-1", "/", "web", false},
		{"docker://web-1/web", "web-1", "/", "web", false},
		{"sim://web-1web", "web-1", "/", "web", false},
	} {
		if got := isSimID(c.id, c.a, c.b, c.c); got != c.want {
			t.Errorf("isSimID(%q, %q, %q, %q) = %v", c.id, c.a, c.b, c.c, got)
		}
	}
}

// An image that cannot be pulled: the bound pod stays Pending, its
// container waiting in ImagePullBackOff, never ready, with nothing more
// scheduled for it.
func TestPullErrorImage(t *testing.T) {
	cfg := Defaults()
	cfg.Images = map[string]ImageProfile{"api:typo": {StartDelay: 2 * time.Second, PullError: true}}
	f := newFixture(t, cfg)
	f.createPod("a", "api:typo")
	got := f.runFor(time.Hour)
	if len(got) != 2 || !strings.Contains(got[0], "bound") || !strings.Contains(got[1], "pod default/a image-pull-backoff on node-1") {
		t.Fatalf("transitions = %v", got)
	}
	p := f.pod("a")
	if p.Status.Phase != corev1.PodPending || ready(p) {
		t.Fatalf("phase %s ready %v; want Pending, not ready", p.Status.Phase, ready(p))
	}
	if w := p.Status.ContainerStatuses[0].State.Waiting; w == nil || w.Reason != "ImagePullBackOff" {
		t.Fatalf("container state %+v; want waiting in ImagePullBackOff", p.Status.ContainerStatuses[0].State)
	}
	if s := cfg.Images["api:typo"].Summary(); s != "failing to pull" || cfg.Images["api:typo"].Healthy() {
		t.Fatalf("summary %q, healthy %v", s, cfg.Images["api:typo"].Healthy())
	}
}

// A node back before the grace period ran out was never seen down: no
// write to it, and its ready pod stays ready without a status write.
func TestNodeRecoversWithinTheGracePeriod(t *testing.T) {
	f := oneNodeWithPodA(t)
	node, _ := f.server.GetNode("", "node-1")
	pod := f.pod("a")
	if err := f.k.FailNode("node-1"); err != nil {
		t.Fatal(err)
	}
	f.runFor(20 * time.Second)
	if err := f.k.RecoverNode("node-1"); err != nil {
		t.Fatal(err)
	}
	got := f.runFor(time.Minute)
	if after, _ := f.server.GetNode("", "node-1"); after.ResourceVersion != node.ResourceVersion {
		t.Errorf("node written: rv %s -> %s", node.ResourceVersion, after.ResourceVersion)
	}
	if after := f.pod("a"); after.ResourceVersion != pod.ResourceVersion || !ready(after) {
		t.Errorf("pod written (rv %s -> %s) or not ready; transitions %v", pod.ResourceVersion, after.ResourceVersion, got)
	}
}
