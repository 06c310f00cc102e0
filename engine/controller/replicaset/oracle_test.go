package replicaset

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// The oracle files in testdata/ are copies of /work/shared/oracle/cases:
// outputs of the real upstream v1.36.3 functions.

type oracleFile[I, E any] struct {
	Cases []struct {
		Name     string `json:"name"`
		Input    I      `json:"input"`
		Expected E      `json:"expected"`
	} `json:"cases"`
}

func loadOracle[I, E any](t *testing.T, name string) oracleFile[I, E] {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var f oracleFile[I, E]
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatalf("%s has no cases", name)
	}
	return f
}

type slowStartInput struct {
	CallLimit        int `json:"callLimit"`
	Count            int `json:"count"`
	InitialBatchSize int `json:"initialBatchSize"`
}

type slowStartExpected struct {
	BatchSizes []int `json:"batchSizes"`
	Calls      int   `json:"calls"`
	Error      bool  `json:"error"`
	Successes  int   `json:"successes"`
}

// Every oracle case in which all calls succeed is a slow-start plan: the
// planned batches must be upstream's, and for the controller's initial
// batch size 1 a real scale-up from 0 must create that many pods in one
// sync and record those batches.
func TestOracleSlowStartBatches(t *testing.T) {
	f := loadOracle[slowStartInput, slowStartExpected](t, "slow_start_batch.json")
	ran := 0
	for _, c := range f.Cases {
		if c.Input.CallLimit < c.Input.Count {
			continue // failure cases belong to podutil.SlowStartBatch's tests
		}
		ran++
		t.Run(c.Name, func(t *testing.T) {
			if got := plannedBatches(c.Input.Count, c.Input.InitialBatchSize); joinInts(got) != joinInts(c.Expected.BatchSizes) {
				t.Errorf("plannedBatches = %v, want %v", got, c.Expected.BatchSizes)
			}
			if c.Input.InitialBatchSize != slowStartInitialBatchSize {
				return
			}
			e := newEnv(t, DefaultConfig())
			e.createRS("web", int32(c.Input.Count), 0)
			e.deliver()
			e.resetMark()
			e.sync()
			var decision *ManageDecision
			var result *ManageResult
			for _, r := range e.rec.Records()[e.mark:] {
				switch p := r.Data.(type) {
				case ManageDecision:
					decision = &p
				case ManageResult:
					result = &p
				}
			}
			if c.Input.Count == 0 {
				if decision == nil || decision.Action != ManageNothing {
					t.Errorf("decision %+v", decision)
				}
				return
			}
			if decision == nil || joinInts(decision.Batches) != joinInts(c.Expected.BatchSizes) {
				t.Errorf("decision %+v, want batches %v", decision, c.Expected.BatchSizes)
			}
			if result == nil || result.Succeeded != c.Expected.Successes || result.Attempted != c.Expected.Calls {
				t.Errorf("result %+v", result)
			}
			if n := len(e.srv.ListPods("default", nil)); n != c.Expected.Successes {
				t.Errorf("%d pods created, want %d", n, c.Expected.Successes)
			}
		})
	}
	if ran == 0 {
		t.Fatal("no all-success case in the oracle file")
	}
}

type oraclePod struct {
	Labels         map[string]string `json:"labels"`
	Name           string            `json:"name"`
	Phase          string            `json:"phase"`
	ReadyCondition string            `json:"readyCondition"`
	ReadySince     string            `json:"readySince"`
}

type statusInput struct {
	ActivePods          []oraclePod       `json:"activePods"`
	ManageReplicasError bool              `json:"manageReplicasError"`
	MinReadySeconds     int32             `json:"minReadySeconds"`
	Now                 string            `json:"now"`
	SpecReplicas        int32             `json:"specReplicas"`
	TemplateLabels      map[string]string `json:"templateLabels"`
	TerminatingPodCount int               `json:"terminatingPodCount"`
}

type statusExpected struct {
	AvailableReplicas    int32 `json:"availableReplicas"`
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas"`
	ReadyReplicas        int32 `json:"readyReplicas"`
	Replicas             int32 `json:"replicas"`
	TerminatingReplicas  int32 `json:"terminatingReplicas"`
	Conditions           []struct {
		Reason string `json:"reason"`
		Status string `json:"status"`
		Type   string `json:"type"`
	} `json:"conditions"`
}

// Each calculateStatus oracle case is played end to end: the pods exist in
// the cluster, the ReplicaSet (selector name=foo, the case's template
// labels) syncs once at the case's "now", and the status it writes must
// carry the oracle's counts and condition. A manageReplicas error is
// produced by an API server that refuses every pod create (as a quota
// would); a template without image no longer gets that far, the server
// rejects the ReplicaSet itself.
func TestOracleReplicaSetStatusEndToEnd(t *testing.T) {
	f := loadOracle[statusInput, statusExpected](t, "replicaset_calculate_status.json")
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			now, err := time.Parse(time.RFC3339, c.Input.Now)
			if err != nil {
				t.Fatal(err)
			}
			e := newEnvAt(t, DefaultConfig(), now)
			if c.Input.ManageReplicasError {
				e.rc.podControl = &flakyPods{srv: e.srv} // every create refused
			}
			replicas := c.Input.SpecReplicas
			rs, err := e.srv.CreateReplicaSet("kubectl", &appsv1.ReplicaSet{
				ObjectMeta: metaNS("rs"),
				Spec: appsv1.ReplicaSetSpec{
					Replicas:        &replicas,
					MinReadySeconds: c.Input.MinReadySeconds,
					Selector:        selectorOf(map[string]string{"name": "foo"}),
					Template: corev1.PodTemplateSpec{
						ObjectMeta: labelsOnly(c.Input.TemplateLabels),
						Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1.27"}}},
					},
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range c.Input.ActivePods {
				e.createPod(op.Name, op.Labels, rs)
				since, err := time.Parse(time.RFC3339, op.ReadySince)
				if err != nil {
					t.Fatal(err)
				}
				p, _ := e.srv.GetPod("default", op.Name)
				s := p.DeepCopy()
				s.Status.Phase = corev1.PodPhase(op.Phase)
				if op.ReadyCondition != "" {
					s.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionStatus(op.ReadyCondition), LastTransitionTime: metav1.NewTime(since)}}
				}
				if _, err := e.srv.UpdatePodStatus("kubelet", s); err != nil {
					t.Fatal(err)
				}
			}
			if c.Input.TerminatingPodCount != 0 {
				t.Fatalf("terminatingPodCount %d: not supported by this end-to-end harness", c.Input.TerminatingPodCount)
			}
			e.deliver()
			e.sync()
			st := e.liveRS("rs").Status
			want := c.Expected
			if st.Replicas != want.Replicas || st.FullyLabeledReplicas != want.FullyLabeledReplicas ||
				st.ReadyReplicas != want.ReadyReplicas || st.AvailableReplicas != want.AvailableReplicas ||
				st.TerminatingReplicas == nil || *st.TerminatingReplicas != want.TerminatingReplicas {
				t.Errorf("status %+v, want %+v", st, want)
			}
			if len(st.Conditions) != len(want.Conditions) {
				t.Fatalf("conditions %+v, want %+v", st.Conditions, want.Conditions)
			}
			for i, wc := range want.Conditions {
				gc := st.Conditions[i]
				if string(gc.Type) != wc.Type || string(gc.Status) != wc.Status || gc.Reason != wc.Reason {
					t.Errorf("condition %+v, want %+v", gc, wc)
				}
			}
			if c.Input.ManageReplicasError && st.Conditions[0].Reason != podutil.ReasonFailedCreate {
				t.Error("a failed create must report FailedCreate")
			}
		})
	}
}
