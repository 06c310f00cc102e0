package deployutil

import (
	"encoding/json"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The worked examples of the doc comments that no oracle case covers
// verbatim. Each line of a doc example is one assertion here.

func TestFractionWorkedExamples(t *testing.T) {
	for _, tc := range []struct {
		spec, maxAnn, replicas int32
		surge                  string
		want                   int32
	}{
		{50, 100, 120, `0`, 10},
		{3, 6, 8, `1`, 2},
		{5, 7, 3, `0`, -3},
		{10, 0, 0, `0`, -10},
	} {
		d := newDeployment(t, tc.replicas, "RollingUpdate", json.RawMessage(tc.surge), json.RawMessage(`1`))
		rs := sizedRS("rs", tc.spec)
		if tc.maxAnn > 0 {
			rs.Annotations = map[string]string{MaxReplicasAnnotation: itoa(tc.maxAnn)}
		}
		if got := GetReplicaSetFraction(rs, d); got != tc.want {
			t.Errorf("spec %d max %d replicas %d: got %d, want %d", tc.spec, tc.maxAnn, tc.replicas, got, tc.want)
		}
	}
	d := newDeployment(t, 20, "RollingUpdate", json.RawMessage(`0`), json.RawMessage(`1`))
	rs := sizedRS("rs", 5)
	rs.Annotations = map[string]string{MaxReplicasAnnotation: "10"}
	if got := GetReplicaSetProportion(rs, d, 10, 8); got != 2 {
		t.Errorf("proportion example: %d", got)
	}
}

func TestCleanupUnhealthyWorkedExample(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`2`), json.RawMessage(`2`))
	a, b := sizedRS("a", 3), sizedRS("b", 4)
	a.Status.AvailableReplicas, b.Status.AvailableReplicas = 1, 2
	b.CreationTimestamp = metav1.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	res, err := CleanupUnhealthyReplicas(d, []*appsv1.ReplicaSet{b, a}, 3)
	if err != nil || res.Count != 3 || rowsText(res.Rows) != "a 3->1 (-2), b 4->3 (-1)" {
		t.Errorf("got %d %v %s", res.Count, err, rowsText(res.Rows))
	}
}

func TestScaleDownWorkedExample(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`0`), json.RawMessage(`3`))
	at := func(rs *appsv1.ReplicaSet, min int, avail int32) *appsv1.ReplicaSet {
		rs.CreationTimestamp = metav1.NewTime(time.Date(2024, 1, 1, 0, min, 0, 0, time.UTC))
		rs.Status.AvailableReplicas = avail
		return rs
	}
	old1, old2, newRS := at(sizedRS("old1", 2), 1, 2), at(sizedRS("old2", 3), 2, 3), at(sizedRS("new", 8), 3, 8)
	res, err := ScaleDownOldReplicaSetsForRollingUpdate(d, []*appsv1.ReplicaSet{old2, old1, newRS}, []*appsv1.ReplicaSet{old2, old1})
	if err != nil || res.Target != 6 || res.Total != 5 || rowsText(res.Rows) != "old1 2->0 (-2), old2 3->0 (-3)" {
		t.Errorf("got %+v %v", res, err)
	}
}

func TestReconcileOldWorkedExample(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`3`), json.RawMessage(`2`))
	old, newRS := sizedRS("old", 10), sizedRS("new", 3)
	old.Status.AvailableReplicas = 10
	p := ReconcileOldReplicaSets(d, []*appsv1.ReplicaSet{old, newRS}, []*appsv1.ReplicaSet{old}, newRS)
	if p.Math.MaxScaledDown != 2 || len(p.Writes) != 1 || p.Writes[0].Replicas != 8 || !p.Scaled {
		t.Errorf("got %+v", p)
	}
}

func TestStatusWorkedExamples(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`3`), json.RawMessage(`2`))
	old, newRS := sizedRS("old", 8), sizedRS("new", 5)
	old.Status = appsv1.ReplicaSetStatus{Replicas: 8, ReadyReplicas: 8, AvailableReplicas: 8}
	newRS.Status = appsv1.ReplicaSetStatus{Replicas: 5, AvailableReplicas: 2}
	st := CalculateStatus([]*appsv1.ReplicaSet{old, newRS}, newRS, d, testNow)
	if st.Replicas != 13 || st.UpdatedReplicas != 5 || st.AvailableReplicas != 10 || st.UnavailableReplicas != 3 ||
		GetDeploymentCondition(&st, appsv1.DeploymentAvailable).Status != corev1.ConditionTrue {
		t.Errorf("CalculateStatus %+v", st)
	}

	d = newDeployment(t, 5, "RollingUpdate", nil, nil)
	if DeploymentComplete(d, &appsv1.DeploymentStatus{Replicas: 5, UpdatedReplicas: 5, AvailableReplicas: 4}) {
		t.Error("DeploymentComplete example")
	}
	d.Status = appsv1.DeploymentStatus{Replicas: 10, UpdatedReplicas: 4}
	if !DeploymentProgressing(d, &appsv1.DeploymentStatus{Replicas: 8, UpdatedReplicas: 4}) {
		t.Error("DeploymentProgressing example")
	}

	d.Spec.ProgressDeadlineSeconds = int32p(10)
	last := time.Date(2016, 1, 1, 0, 1, 10, 0, time.UTC)
	prog := appsv1.DeploymentStatus{Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing,
		Status: corev1.ConditionTrue, Reason: ReasonRSUpdated, LastUpdateTime: metav1.NewTime(last)}}}
	if DeploymentTimedOut(d, &prog, last.Add(10*time.Second)) || !DeploymentTimedOut(d, &prog, last.Add(10*time.Second+1)) {
		t.Error("DeploymentTimedOut example")
	}

	d.Spec.ProgressDeadlineSeconds = int32p(60)
	d.Spec.Replicas = int32p(3)
	start := time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)
	d.Status.Conditions = []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue,
		LastUpdateTime: metav1.NewTime(start)}}
	stuck := appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}
	if got, m := RequeueStuckDeployment(d, &stuck, start.Add(30*time.Second)); got != 30*time.Second || m.AddAfter != 31*time.Second {
		t.Errorf("requeue 30s example: %v %+v", got, m)
	}
	if got, m := RequeueStuckDeployment(d, &stuck, start.Add(59*time.Second+1)); got != 0 || m.Decision != RequeueRateLimited {
		t.Errorf("requeue rate-limited example: %v %+v", got, m)
	}
}

func TestSetNewReplicaSetAnnotationsWorkedExample(t *testing.T) {
	d := newDeployment(t, 1, "RollingUpdate", nil, nil)
	rs := sizedRS("rs", 1)
	rs.Annotations = map[string]string{RevisionAnnotation: "12", RevisionHistoryAnnotation: "10,11"}
	if !SetNewReplicaSetAnnotations(d, rs, "13", true, 5) ||
		rs.Annotations[RevisionHistoryAnnotation] != "11,12" || rs.Annotations[RevisionAnnotation] != "13" {
		t.Errorf("got %v", rs.Annotations)
	}
	// When even the old revision alone does not fit, the history stays.
	rs.Annotations = map[string]string{RevisionAnnotation: "123456", RevisionHistoryAnnotation: "1"}
	SetNewReplicaSetAnnotations(d, rs, "123457", true, 5)
	if rs.Annotations[RevisionHistoryAnnotation] != "1" || rs.Annotations[RevisionAnnotation] != "123457" {
		t.Errorf("overlong: %v", rs.Annotations)
	}
}

func itoa(n int32) string { b, _ := json.Marshal(n); return string(b) }
