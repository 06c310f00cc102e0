package sim

import (
	"errors"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/kubelet"
)

func replicaSet(name string, replicas int32, image string) *appsv1.ReplicaSet {
	lbl := map[string]string{"app": name}
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: lbl},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: lbl},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}}}}}
}

// create applies rs through an action so the simulator observes the write.
func create(t *testing.T, s *Sim, rs *appsv1.ReplicaSet) {
	t.Helper()
	err := s.Do(&Action{Name: "create " + rs.Name, Do: func(s *Sim) (string, error) {
		_, err := s.Server().CreateReplicaSet("kubectl", rs)
		return "created", err
	}})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSameSeedSameTrace(t *testing.T) {
	run := func(seed uint64) string {
		opts := DefaultOptions(seed)
		opts.Kubelet.Default.Jitter = 500 * time.Millisecond
		s, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		create(t, s, replicaSet("web", 4, "nginx"))
		s.Settle(10000)
		return s.Recorder().Text()
	}
	a, b, c := run(7), run(7), run(8)
	if a != b {
		t.Fatal("same seed gave different traces")
	}
	if a == c {
		t.Fatal("a different seed gave the same trace despite jitter")
	}
	if !strings.HasPrefix(a, "# rolloutlab trace v1 seed=7\n") {
		t.Fatalf("trace does not start with the seed: %q", a[:40])
	}
}

func TestWatchDeliveredBeforeNextSync(t *testing.T) {
	s, err := New(DefaultOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, replicaSet("web", 2, "nginx"))
	var kinds []string
	for i := 0; i < 8; i++ {
		info, ok := s.Step()
		if !ok {
			break
		}
		kinds = append(kinds, info.Kind.String()+":"+info.Component)
	}
	// The RS ADDED event reaches the cache first; the first sync creates two
	// pods; their ADDED events (and the status write) are delivered before
	// the ReplicaSet controller syncs again.
	got := strings.Join(kinds, " ")
	if !strings.HasPrefix(got, "watch:informer/replicasets sync:replicaset-controller watch:informer/pods watch:informer/pods") {
		t.Fatalf("step order: %s", got)
	}
}

func TestPodLimitStopsTheRun(t *testing.T) {
	opts := DefaultOptions(1)
	opts.Limits.MaxPods = 10
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, replicaSet("big", 50, "nginx"))
	s.Settle(10000)
	if !errors.Is(s.Err(), ErrPodLimit) {
		t.Fatalf("Err = %v, want the pod limit", s.Err())
	}
	if _, ok := s.Step(); ok {
		t.Fatal("Step went on after the limit stopped the run")
	}
	last := s.Recorder().Records()[s.Recorder().Len()-1]
	if !strings.Contains(last.Data.Text(), "run stopped: pod limit exceeded") {
		t.Fatalf("last record = %q", last.Data.Text())
	}
}

func TestTraceLimitStopsTheRun(t *testing.T) {
	opts := DefaultOptions(1)
	opts.Limits.MaxTraceRecords = 200
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, replicaSet("big", 50, "nginx"))
	s.Settle(10000)
	if !errors.Is(s.Err(), ErrTraceLimit) {
		t.Fatalf("Err = %v, want the trace limit", s.Err())
	}
	if n := s.Recorder().Len(); n > 200+maxRecordsPerStepInThisTest {
		t.Fatalf("%d records: the run went on past the limit", n)
	}
	last := s.Recorder().Records()[s.Recorder().Len()-1]
	if want := "run stopped: trace limit reached: "; !strings.Contains(last.Data.Text(), want) || !strings.Contains(last.Data.Text(), "the limit is 200 (spec.limits.maxTraceRecords)") {
		t.Fatalf("last record = %q", last.Data.Text())
	}
}

// maxRecordsPerStepInThisTest bounds what the step that passes the trace
// limit may add (one sync creating 50 pods writes a few records each).
const maxRecordsPerStepInThisTest = 400

func TestStepLimit(t *testing.T) {
	opts := DefaultOptions(1)
	opts.Limits.MaxSteps = 5
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, replicaSet("web", 3, "nginx"))
	n, _ := s.Settle(100)
	if n != 5 || !errors.Is(s.Err(), ErrStepLimit) {
		t.Fatalf("took %d steps, Err = %v", n, s.Err())
	}
}

func TestSettleHorizonWithCrashLoop(t *testing.T) {
	opts := DefaultOptions(1)
	opts.Kubelet.Images = map[string]kubelet.ImageProfile{"bad": {StartDelay: time.Second, CrashLoop: true, CrashAfter: time.Second}}
	opts.Limits.SettleHorizon = 10 * time.Minute
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, replicaSet("web", 1, "bad"))
	_, idle := s.Settle(100000)
	if idle {
		t.Fatal("a crash-looping pod left the simulation idle")
	}
	if el := s.Clock().Elapsed(); el > 10*time.Minute {
		t.Fatalf("settle ran past its horizon: %v", el)
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
}

func TestTimelineActionsAndRunTo(t *testing.T) {
	s, err := New(DefaultOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	ran := []string{}
	s.Schedule(&Action{Name: "later", At: s.Now().Add(30 * time.Second), Do: func(*Sim) (string, error) { ran = append(ran, "later"); return "", nil }})
	s.Schedule(&Action{Name: "when-quiet", When: func(s *Sim) bool { return s.Quiet() }, Do: func(*Sim) (string, error) { ran = append(ran, "quiet"); return "", nil }})
	create(t, s, replicaSet("web", 1, "nginx"))
	s.RunTo(s.Clock().Start().Add(20*time.Second), 10000)
	if strings.Join(ran, ",") != "quiet" {
		t.Fatalf("ran by 20s: %v", ran)
	}
	if got := s.Clock().Elapsed(); got != 20*time.Second {
		t.Fatalf("RunTo left the clock at %v", got)
	}
	if p := s.PendingActions(); len(p) != 1 || p[0] != "later" {
		t.Fatalf("pending = %v", p)
	}
	s.Settle(10000)
	if strings.Join(ran, ",") != "quiet,later" || !s.Idle() {
		t.Fatalf("ran = %v idle = %v", ran, s.Idle())
	}
}

func TestStepInfoRecords(t *testing.T) {
	s, err := New(DefaultOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, replicaSet("web", 1, "nginx"))
	s.Step() // watch delivery
	info, ok := s.Step()
	if !ok || info.Kind != StepSync || info.Key != "default/web" {
		t.Fatalf("second step = %+v", info)
	}
	recs := info.Records(s.Recorder())
	if len(recs) == 0 || recs[0].Seq != info.FirstSeq || recs[len(recs)-1].Seq != info.LastSeq {
		t.Fatalf("records %d, first %d last %d", len(recs), info.FirstSeq, info.LastSeq)
	}
	for _, r := range recs {
		if r.Step != info.Step {
			t.Fatalf("record %d stamped with step %d, want %d", r.Seq, r.Step, info.Step)
		}
	}
	if !strings.Contains(info.Text(), "step 2 sync replicaset-controller default/web") {
		t.Fatalf("Text = %q", info.Text())
	}
}
