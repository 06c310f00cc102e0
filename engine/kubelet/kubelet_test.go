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

func TestNodeFailureAndRecovery(t *testing.T) {
	cfg := Defaults()
	cfg.Nodes = []string{"node-1"}
	f := newFixture(t, cfg)
	f.createPod("a", "nginx:1.25")
	f.runFor(5 * time.Second)
	if err := f.k.FailNode("node-1"); err != nil {
		t.Fatal(err)
	}
	f.runFor(41 * time.Second)
	if ready(f.pod("a")) {
		t.Fatal("pod on failed node still ready after the grace period")
	}
	f.runFor(300 * time.Second)
	if f.pod("a").DeletionTimestamp == nil {
		t.Fatal("pod not evicted")
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
