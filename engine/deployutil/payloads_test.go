package deployutil

import (
	"encoding/json"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// TestPayloadsRecordAndMarshal emits one record of every payload type through
// a Recorder and checks the kind, a one-line text, and lowerCamelCase JSON.
func TestPayloadsRecordAndMarshal(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`3`), json.RawMessage(`2`))
	d.Spec.ProgressDeadlineSeconds = int32p(600)
	d.Spec.RevisionHistoryLimit = int32p(1)
	old, newRS := sizedRS("old", 10), sizedRS("new", 0)
	old.Status.AvailableReplicas = 10
	all := []*appsv1.ReplicaSet{old, newRS}
	nm, _ := ExplainNewRSNewReplicas(d, all, newRS)
	np, _ := ReconcileNewReplicaSet(d, all, newRS)
	_, ev := IsScalingEvent(d, newRS, []*appsv1.ReplicaSet{old})
	st := SyncRolloutStatus(all, newRS, d, testNow)
	_, rq := RequeueStuckDeployment(d, &st.NewStatus, testNow)
	payloads := []trace.Payload{
		ExplainFenceposts(d), nm, np.Math, ReconcileOldReplicaSets(d, all, []*appsv1.ReplicaSet{old}, newRS).Math,
		ev, Scale(d, newRS, []*appsv1.ReplicaSet{old}).Math, CleanupDeployment(d, []*appsv1.ReplicaSet{old}), st, rq,
	}
	rec := trace.NewRecorder(clock.New(clock.Epoch), 1)
	for _, p := range payloads {
		rec.Emit("deployment-controller", p)
	}
	for _, r := range rec.Records() {
		if r.Kind() != trace.KindDecision {
			t.Errorf("%T kind %v", r.Data, r.Kind())
		}
		if txt := r.Data.Text(); txt == "" || strings.Contains(txt, "\n") {
			t.Errorf("%T text %q", r.Data, txt)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("%T: %v", r.Data, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		data, _ := m["data"].(map[string]any)
		for k := range data {
			if k == "" || strings.ToLower(k[:1]) != k[:1] {
				t.Errorf("%T JSON key %q is not lowerCamelCase", r.Data, k)
			}
		}
	}
	if !strings.Contains(rec.Text(), "NewRSNewReplicas: maxTotalPods = replicas 10 + maxSurge 3 = 13") {
		t.Errorf("trace:\n%s", rec.Text())
	}
}

func TestPlanRunStopsAtFirstError(t *testing.T) {
	p := Plan{OnError: ErrorReturn, Scaled: true, Writes: []RSWrite{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	var seen []string
	done, scaled, err := p.Run(func(w RSWrite) error {
		seen = append(seen, w.Name)
		if w.Name == "b" {
			return errStub
		}
		return nil
	})
	if done != 1 || scaled || err != errStub || strings.Join(seen, ",") != "a,b" {
		t.Errorf("done %d scaled %v err %v seen %v", done, scaled, err, seen)
	}
	if done, scaled, err := p.Run(func(RSWrite) error { return nil }); done != 3 || !scaled || err != nil {
		t.Errorf("all ok: %d %v %v", done, scaled, err)
	}
	if p.Text() != "a 0->0 (desired , max ); b 0->0 (desired , max ); c 0->0 (desired , max )" {
		t.Errorf("text %q", p.Text())
	}
}

type stubErr struct{}

func (stubErr) Error() string { return "stub" }

var errStub error = stubErr{}
