package deployutil

import (
	"encoding/json"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// testNow stands in for upstream's wall clock in sync_rollout_status ("far
// after 2017-02-15T18:49:00Z").
var testNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type countsIn struct {
	Replicas           int32 `json:"replicas"`
	UpdatedReplicas    int32 `json:"updatedReplicas"`
	ReadyReplicas      int32 `json:"readyReplicas"`
	AvailableReplicas  int32 `json:"availableReplicas"`
	ObservedGeneration int64 `json:"observedGeneration"`
}

func (c countsIn) status() appsv1.DeploymentStatus {
	return appsv1.DeploymentStatus{Replicas: c.Replicas, UpdatedReplicas: c.UpdatedReplicas, ReadyReplicas: c.ReadyReplicas,
		AvailableReplicas: c.AvailableReplicas, ObservedGeneration: c.ObservedGeneration}
}

type condIn struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	LastUpdateTime     string `json:"lastUpdateTime"`
	LastTransitionTime string `json:"lastTransitionTime"`
}

func (c condIn) build(t *testing.T) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{
		Type: appsv1.DeploymentConditionType(c.Type), Status: corev1.ConditionStatus(c.Status), Reason: c.Reason,
		LastUpdateTime:     metav1.NewTime(parseTime(t, c.LastUpdateTime)),
		LastTransitionTime: metav1.NewTime(parseTime(t, c.LastTransitionTime)),
	}
}

func TestOracleDeploymentComplete(t *testing.T) {
	runOracle(t, "deployment_complete", func(t *testing.T, c oracleCase) {
		var in struct {
			deploymentIn
			NewStatus countsIn `json:"newStatus"`
		}
		var want struct {
			Value bool `json:"value"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := in.build(t)
		d.Generation = in.Generation
		st := in.NewStatus.status()
		if got := DeploymentComplete(d, &st); got != want.Value {
			t.Fatalf("got %v, want %v", got, want.Value)
		}
	})
}

func TestOracleDeploymentProgressing(t *testing.T) {
	runOracle(t, "deployment_progressing", func(t *testing.T, c oracleCase) {
		var in struct {
			Old countsIn `json:"oldStatus"`
			New countsIn `json:"newStatus"`
		}
		var want struct {
			Value bool `json:"value"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := newDeployment(t, 10, "RollingUpdate", nil, nil)
		d.Status = in.Old.status()
		st := in.New.status()
		if got := DeploymentProgressing(d, &st); got != want.Value {
			t.Fatalf("got %v, want %v", got, want.Value)
		}
	})
}

func TestOracleDeploymentTimedOut(t *testing.T) {
	runOracle(t, "deployment_timed_out", func(t *testing.T, c oracleCase) {
		var in struct {
			Now      string  `json:"now"`
			Deadline *int32  `json:"progressDeadlineSeconds"`
			Cond     *condIn `json:"progressingCondition"`
		}
		var want struct {
			Value bool `json:"value"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := newDeployment(t, 1, "RollingUpdate", nil, nil)
		d.Spec.ProgressDeadlineSeconds = in.Deadline
		var st appsv1.DeploymentStatus
		if in.Cond != nil {
			st.Conditions = []appsv1.DeploymentCondition{in.Cond.build(t)}
		}
		if got := DeploymentTimedOut(d, &st, parseTime(t, in.Now)); got != want.Value {
			t.Fatalf("got %v, want %v", got, want.Value)
		}
	})
}

func TestOracleRequeueStuckDeployment(t *testing.T) {
	runOracle(t, "requeue_stuck_deployment", func(t *testing.T, c oracleCase) {
		var in struct {
			Conditions []condIn `json:"conditions"`
			NewStatus  countsIn `json:"newStatus"`
			Now        string   `json:"now"`
			Deadline   *int32   `json:"progressDeadlineSeconds"`
			Replicas   int32    `json:"replicas"`
		}
		var want struct {
			Seconds float64 `json:"requeueAfterSeconds"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := newDeployment(t, in.Replicas, "Recreate", nil, nil)
		d.Spec.ProgressDeadlineSeconds = in.Deadline
		for _, ci := range in.Conditions {
			d.Status.Conditions = append(d.Status.Conditions, ci.build(t))
		}
		st := in.NewStatus.status()
		got, m := RequeueStuckDeployment(d, &st, parseTime(t, in.Now))
		var wantD time.Duration
		switch {
		case want.Seconds < 0:
			wantD = NoRequeue
		default:
			wantD = time.Duration(want.Seconds * float64(time.Second))
		}
		if got != wantD {
			t.Fatalf("got %v, want %v (%s)", got, wantD, m.Text())
		}
		if got > 0 && m.AddAfter != got+time.Second {
			t.Errorf("AddAfter %v", m.AddAfter)
		}
	})
}

func TestOracleDeploymentCalculateStatus(t *testing.T) {
	runOracle(t, "deployment_calculate_status", func(t *testing.T, c oracleCase) {
		var in struct {
			deploymentIn
			NewRS  *rsIn  `json:"newRS"`
			OldRSs []rsIn `json:"oldRSs"`
		}
		var want struct {
			Available struct {
				Reason string `json:"reason"`
				Status string `json:"status"`
			} `json:"availableCondition"`
			countsIn
			Unavailable int32  `json:"unavailableReplicas"`
			Terminating *int32 `json:"terminatingReplicas"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := in.build(t)
		d.Generation = in.Generation
		newRS := in.NewRS.build(t)
		all := append(buildRSs(t, in.OldRSs), newRS)
		st := CalculateStatus(all, newRS, d, testNow)
		got := countsIn{st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas, st.ObservedGeneration}
		if got != want.countsIn || st.UnavailableReplicas != want.Unavailable {
			t.Errorf("status %+v unavailable %d; want %+v %d", got, st.UnavailableReplicas, want.countsIn, want.Unavailable)
		}
		if (st.TerminatingReplicas == nil) != (want.Terminating == nil) ||
			(want.Terminating != nil && *st.TerminatingReplicas != *want.Terminating) {
			t.Errorf("terminating %v, want %v", st.TerminatingReplicas, want.Terminating)
		}
		ac := GetDeploymentCondition(&st, appsv1.DeploymentAvailable)
		if ac == nil || string(ac.Status) != want.Available.Status || ac.Reason != want.Available.Reason || !ac.LastUpdateTime.Time.Equal(testNow) {
			t.Errorf("available condition %+v", ac)
		}
	})
}

func TestOracleSyncRolloutStatus(t *testing.T) {
	runOracle(t, "sync_rollout_status", func(t *testing.T, c oracleCase) {
		var in struct {
			AllRSs     []rsIn   `json:"allRSs"`
			Conditions []condIn `json:"conditions"`
			NewRS      *rsIn    `json:"newRS"`
			Deadline   *int32   `json:"progressDeadlineSeconds"`
			Replicas   int32    `json:"replicas"`
			Status     countsIn `json:"status"`
			Strategy   string   `json:"strategy"`
		}
		type condWant struct {
			Reason, Status                     string
			LastUpdateTime, LastTransitionTime string
		}
		var want struct {
			Available   condWant  `json:"available"`
			Progressing *condWant `json:"progressing"`
			Status      struct {
				countsIn
				Unavailable int32 `json:"unavailableReplicas"`
			} `json:"status"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := newDeployment(t, in.Replicas, in.Strategy, nil, nil)
		d.Spec.ProgressDeadlineSeconds = in.Deadline
		d.Status = in.Status.status()
		var oldTimes appsv1.DeploymentCondition
		for _, ci := range in.Conditions {
			cond := ci.build(t)
			d.Status.Conditions = append(d.Status.Conditions, cond)
			if cond.Type == appsv1.DeploymentProgressing {
				oldTimes = cond
			}
		}
		newRS := in.NewRS.build(t)
		all := append(buildRSs(t, in.AllRSs), newRS)
		r := SyncRolloutStatus(all, newRS, d, testNow)
		st := r.NewStatus
		got := countsIn{st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas, 0}
		if got != want.Status.countsIn || st.UnavailableReplicas != want.Status.Unavailable {
			t.Errorf("status %+v unavailable %d; want %+v", got, st.UnavailableReplicas, want.Status)
		}
		ac := GetDeploymentCondition(&st, appsv1.DeploymentAvailable)
		if ac == nil || string(ac.Status) != want.Available.Status || ac.Reason != want.Available.Reason {
			t.Errorf("available %+v, want %+v", ac, want.Available)
		}
		pc := GetDeploymentCondition(&st, appsv1.DeploymentProgressing)
		if want.Progressing == nil {
			if pc != nil {
				t.Fatalf("progressing %+v, want none", pc)
			}
			return
		}
		if pc == nil || string(pc.Status) != want.Progressing.Status || pc.Reason != want.Progressing.Reason {
			t.Fatalf("progressing %+v, want %+v", pc, want.Progressing)
		}
		checkTime := func(field, mode string, got, old metav1.Time) {
			var w time.Time
			switch mode {
			case "kept":
				w = old.Time
			case "now":
				w = testNow
			case "zero":
			default:
				t.Fatalf("unknown time mode %q", mode)
			}
			if !got.Time.Equal(w) {
				t.Errorf("%s %v, want %s (%v)", field, got.Time, mode, w)
			}
		}
		checkTime("lastUpdateTime", want.Progressing.LastUpdateTime, pc.LastUpdateTime, oldTimes.LastUpdateTime)
		checkTime("lastTransitionTime", want.Progressing.LastTransitionTime, pc.LastTransitionTime, oldTimes.LastTransitionTime)
		if r.Text() == "" {
			t.Error("empty text")
		}
	})
}

func TestConditionHelpers(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Minute)
	var st appsv1.DeploymentStatus
	SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonRSUpdated, "a", t0))
	SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionTrue, ReasonMinimumReplicasAvailable, "b", t0))
	// Same status and reason: nothing changes, not even the message.
	SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonRSUpdated, "new", t1))
	if c := GetDeploymentCondition(&st, appsv1.DeploymentProgressing); c.Message != "a" || !c.LastUpdateTime.Time.Equal(t0) {
		t.Errorf("unchanged condition rewritten: %+v", c)
	}
	// Reason change: transition time kept, moved to the end.
	SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonNewRSAvailable, "c", t1))
	if c := st.Conditions[1]; c.Reason != ReasonNewRSAvailable || !c.LastTransitionTime.Time.Equal(t0) || !c.LastUpdateTime.Time.Equal(t1) {
		t.Errorf("reason change: %+v", c)
	}
	// Status change: both times new.
	SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionFalse, ReasonTimedOut, "d", t1))
	if c := GetDeploymentCondition(&st, appsv1.DeploymentProgressing); !c.LastTransitionTime.Time.Equal(t1) {
		t.Errorf("status change: %+v", c)
	}
	RemoveDeploymentCondition(&st, appsv1.DeploymentProgressing)
	if len(st.Conditions) != 1 || GetDeploymentCondition(&st, appsv1.DeploymentProgressing) != nil {
		t.Errorf("remove: %+v", st.Conditions)
	}
}

func TestTerminatingReplicasNilRules(t *testing.T) {
	synced := sizedRS("synced", 1)
	synced.Status.ObservedGeneration = 1
	fresh := sizedRS("fresh", 1)
	reporting := sizedRS("reporting", 1)
	reporting.Status.TerminatingReplicas = int32p(2)
	if got := TerminatingReplicas([]*appsv1.ReplicaSet{fresh, reporting, nil}); got == nil || *got != 2 {
		t.Errorf("fresh RS must be skipped: %v", got)
	}
	if got := TerminatingReplicas([]*appsv1.ReplicaSet{synced, reporting}); got != nil {
		t.Errorf("synced RS without the field must make the total nil: %v", *got)
	}
}

func TestSyncRolloutStatusReplicaFailureAndRequeue(t *testing.T) {
	d := newDeployment(t, 3, "RollingUpdate", json.RawMessage(`1`), json.RawMessage(`0`))
	d.Spec.ProgressDeadlineSeconds = int32p(60)
	last := testNow.Add(-30 * time.Second)
	d.Status = appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1, UnavailableReplicas: 2,
		TerminatingReplicas: int32p(0),
		Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionFalse, Reason: ReasonMinimumReplicasUnavailable,
				Message: "Deployment does not have minimum availability.", LastUpdateTime: metav1.NewTime(last), LastTransitionTime: metav1.NewTime(last)},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: ReasonRSUpdated,
				LastUpdateTime: metav1.NewTime(last), LastTransitionTime: metav1.NewTime(last)},
		}}
	newRS := sizedRS("web-new", 3)
	newRS.Status = appsv1.ReplicaSetStatus{Replicas: 3, AvailableReplicas: 1, TerminatingReplicas: int32p(0)}
	r := SyncRolloutStatus([]*appsv1.ReplicaSet{newRS}, newRS, d, testNow)
	if r.Changed || r.Case != RolloutNoProgress || r.Requeue == nil || r.Requeue.Decision != RequeueAfter || r.Requeue.AddAfter != 31*time.Second {
		t.Fatalf("decision %+v requeue %+v", r, r.Requeue)
	}
	want := "syncRolloutStatus: replicas 3; total/updated/ready/available 3/3/0/1 -> 3/3/0/1; case no-progress; " +
		"Progressing True ReplicaSetUpdated -> unchanged; requeueStuckDeployment: remaining = lastUpdate + 60s - now = 30s -> requeue after 31s"
	if r.Text() != want {
		t.Errorf("got  %s\nwant %s", r.Text(), want)
	}
	// A ReplicaFailure on the new RS is copied; its times come from the RS
	// condition's lastTransitionTime.
	newRS.Status.Conditions = []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue,
		Reason: "FailedCreate", Message: "quota", LastTransitionTime: metav1.NewTime(last)}}
	r = SyncRolloutStatus([]*appsv1.ReplicaSet{newRS}, newRS, d, testNow)
	rf := GetDeploymentCondition(&r.NewStatus, appsv1.DeploymentReplicaFailure)
	if !r.Changed || rf == nil || rf.Reason != "FailedCreate" || !rf.LastUpdateTime.Time.Equal(last) || r.ReplicaFailureFrom != "web-new" {
		t.Errorf("replica failure: %+v %+v", r, rf)
	}
}
