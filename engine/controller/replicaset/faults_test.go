package replicaset

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// flakyPods lets the first createLimit creates through and fails the rest
// with 503; deletes of the names in failDelete fail with 503.
type flakyPods struct {
	srv         *apiserver.Server
	createLimit int
	creates     int
	failDelete  map[string]bool
}

func (f *flakyPods) CreatePod(actor string, p *corev1.Pod) (*corev1.Pod, error) {
	f.creates++
	if f.creates > f.createLimit {
		return nil, apierrors.NewServiceUnavailable("injected create failure")
	}
	return f.srv.CreatePod(actor, p)
}

func (f *flakyPods) DeletePod(actor, ns, name string, opts apiserver.DeleteOptions) error {
	if f.failDelete[name] {
		return apierrors.NewServiceUnavailable("injected delete failure")
	}
	return f.srv.DeletePod(actor, ns, name, opts)
}

// The failing slow-start oracle cases, played through the controller: the
// batches stop after the first failing one, successes are upstream's, and
// every failed or never-attempted create is un-expected.
func TestOracleSlowStartFailures(t *testing.T) {
	f := loadOracle[slowStartInput, slowStartExpected](t, "slow_start_batch.json")
	ran := 0
	for _, c := range f.Cases {
		if c.Input.CallLimit >= c.Input.Count || c.Input.InitialBatchSize != slowStartInitialBatchSize {
			continue
		}
		ran++
		t.Run(c.Name, func(t *testing.T) {
			e := newEnv(t, DefaultConfig())
			pods := &flakyPods{srv: e.srv, createLimit: c.Input.CallLimit}
			e.rc.podControl = pods
			e.createRS("web", int32(c.Input.Count), 0)
			e.deliver()
			e.resetMark()
			e.sync()
			var result *ManageResult
			for _, r := range e.rec.Records()[e.mark:] {
				if p, ok := r.Data.(ManageResult); ok {
					result = &p
				}
			}
			if result == nil || result.Attempted != c.Expected.Calls || result.Succeeded != c.Expected.Successes ||
				(result.Error != "") != c.Expected.Error || result.Unexpected != c.Input.Count-c.Expected.Successes {
				t.Errorf("result %+v, want %+v", result, c.Expected)
			}
			if pods.creates != c.Expected.Calls {
				t.Errorf("%d create requests, want %d", pods.creates, c.Expected.Calls)
			}
			if add, _, _ := e.rc.Expectations().Get("default/web"); add != int64(c.Expected.Successes) {
				t.Errorf("add=%d, want one pending per created pod (%d)", add, c.Expected.Successes)
			}
			if n := e.rc.Queue().NumRequeues("default/web"); n != 1 {
				t.Errorf("requeues %d, want 1", n)
			}
		})
	}
	if ran == 0 {
		t.Fatal("no failing case in the oracle file")
	}
}

// A delete that fails with something other than NotFound records a
// FailedDelete Event, lowers its expectation and fails the sync with
// "unable to delete pods: ...", after the status (with ReplicaFailure
// FailedDelete) is written.
func TestFailedDeleteEventAndError(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 2, 0)
	e.settle()
	names := e.livePods()
	e.rc.podControl = &flakyPods{srv: e.srv, createLimit: 1 << 30, failDelete: map[string]bool{names[0]: true, names[1]: true}}
	e.scaleRS("web", 0)
	e.deliver()
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	text := strings.Join(got, "\n")
	want := "Warning FailedDelete ReplicaSet default/web: Error deleting: injected delete failure"
	if countPrefix(got, want) != 2 {
		t.Errorf("want two %q in\n%s", want, text)
	}
	if countPrefix(got, "status default/web: replicas 2, ready 0, available 0, terminating 0, ReplicaFailure FailedDelete -> written") != 1 {
		t.Errorf("status:\n%s", text)
	}
	if last := got[len(got)-1]; last != `sync default/web done: error "unable to delete pods: injected delete failure" -> rate-limited retry #1` {
		t.Errorf("end %q", last)
	}
	if c := e.rc.Expectations().Check("default/web"); c.Del != 0 || len(c.PendingKeys) != 0 {
		t.Errorf("expectations %s", c.Text())
	}
}
