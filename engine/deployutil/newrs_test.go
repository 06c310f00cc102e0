package deployutil

import (
	"encoding/json"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func sizedRS(name string, replicas int32) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: appsv1.ReplicaSetSpec{Replicas: &replicas}}
}

func TestOracleNewRSNewReplicas(t *testing.T) {
	runOracle(t, "new_rs_new_replicas", func(t *testing.T, c oracleCase) {
		var in struct {
			deploymentIn
			AllRSReplicas []int32 `json:"all_rs_replicas"`
			NewRSReplicas int32   `json:"new_rs_replicas"`
		}
		var want struct {
			Value int32 `json:"value"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		var all []*appsv1.ReplicaSet
		for i, n := range in.AllRSReplicas {
			all = append(all, sizedRS(fmt.Sprintf("rs-%d", i), n))
		}
		got, err := NewRSNewReplicas(in.build(t), all, sizedRS("new", in.NewRSReplicas))
		if err != nil || got != want.Value {
			t.Fatalf("got %d, %v; want %d", got, err, want.Value)
		}
	})
}

func TestOracleReconcileNewReplicaSet(t *testing.T) {
	runOracle(t, "reconcile_new_replica_set", func(t *testing.T, c oracleCase) {
		var in struct {
			deploymentIn
			NewRS  rsIn   `json:"newRS"`
			OldRSs []rsIn `json:"oldRSs"`
		}
		var want struct {
			Scaled  bool        `json:"scaled"`
			Updates []updateOut `json:"updates"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		newRS := in.NewRS.build(t)
		all := append([]*appsv1.ReplicaSet{newRS}, buildRSs(t, in.OldRSs)...)
		p, err := ReconcileNewReplicaSet(in.build(t), all, newRS)
		if err != nil {
			t.Fatal(err)
		}
		checkWrites(t, p.Writes, want.Updates)
		if _, scaled, _ := p.Run(func(RSWrite) error { return nil }); scaled != want.Scaled {
			t.Errorf("scaled %v, want %v", scaled, want.Scaled)
		}
	})
}

// TestNewRSWorkedExamples checks the examples in NewRSNewReplicas's doc.
func TestNewRSWorkedExamples(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`3`), json.RawMessage(`2`))
	for _, tc := range []struct{ old, cur, want int32 }{{10, 0, 3}, {8, 0, 5}, {3, 8, 10}, {10, 3, 3}} {
		newRS := sizedRS("new", tc.cur)
		got, err := NewRSNewReplicas(d, []*appsv1.ReplicaSet{sizedRS("old", tc.old), newRS}, newRS)
		if err != nil || got != tc.want {
			t.Errorf("old %d new %d: got %d, %v; want %d", tc.old, tc.cur, got, err, tc.want)
		}
	}
}

func TestNewRSMathText(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`3`), json.RawMessage(`2`))
	newRS := sizedRS("new", 0)
	m, _ := ExplainNewRSNewReplicas(d, []*appsv1.ReplicaSet{sizedRS("old", 10), newRS}, newRS)
	want := "NewRSNewReplicas: maxTotalPods = replicas 10 + maxSurge 3 = 13; current 10; scale up min(13-10, 10-0) = 3 -> new RS 3"
	if m.Text() != want {
		t.Errorf("got  %s\nwant %s", m.Text(), want)
	}
	full := sizedRS("new", 3)
	m, _ = ExplainNewRSNewReplicas(d, []*appsv1.ReplicaSet{sizedRS("old", 10), full}, full)
	want = "NewRSNewReplicas: maxTotalPods = replicas 10 + maxSurge 3 = 13; current 13 >= 13 -> new RS stays 3"
	if m.Text() != want {
		t.Errorf("got  %s\nwant %s", m.Text(), want)
	}
	rec := newDeployment(t, 4, "Recreate", nil, nil)
	m, _ = ExplainNewRSNewReplicas(rec, nil, newRS)
	if want = "NewRSNewReplicas: strategy Recreate -> new RS = replicas 4"; m.Text() != want {
		t.Errorf("got  %s\nwant %s", m.Text(), want)
	}
}

func TestNewRSNewReplicasErrors(t *testing.T) {
	newRS := sizedRS("new", 0)
	// Upstream reads maxSurge without a default here: nil is an error.
	d := newDeployment(t, 10, "RollingUpdate", nil, json.RawMessage(`1`))
	if _, err := NewRSNewReplicas(d, nil, newRS); err == nil {
		t.Error("nil maxSurge: want error")
	}
	d = newDeployment(t, 10, "Canary", nil, nil)
	p, err := ReconcileNewReplicaSet(d, []*appsv1.ReplicaSet{newRS}, newRS)
	if err == nil || len(p.Writes) != 0 {
		t.Errorf("unknown strategy: writes %v, err %v", p.Writes, err)
	}
}

func TestReconcileNewPlanAndText(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`3`), json.RawMessage(`2`))
	newRS := sizedRS("web-new", 11)
	p, err := ReconcileNewReplicaSet(d, []*appsv1.ReplicaSet{newRS}, newRS)
	if err != nil || len(p.Writes) != 1 {
		t.Fatalf("plan %+v, %v", p, err)
	}
	w := p.Writes[0]
	if w.EventMessage() != "Scaled down replica set web-new from 11 to 10" {
		t.Errorf("event %q", w.EventMessage())
	}
	if got := p.Math.Text(); got != "reconcileNewReplicaSet: new RS web-new 11 > replicas 10 -> scale down to 10" {
		t.Errorf("text %q", got)
	}
	applied := w.Apply(newRS)
	if *applied.Spec.Replicas != 10 || applied.Annotations[MaxReplicasAnnotation] != "13" || newRS.Annotations != nil {
		t.Errorf("apply: %v %v; input touched: %v", *applied.Spec.Replicas, applied.Annotations, newRS.Annotations)
	}
	failing := fmt.Errorf("conflict")
	if _, scaled, err := p.Run(func(RSWrite) error { return failing }); scaled || err != failing {
		t.Errorf("failed write: scaled %v err %v", scaled, err)
	}
}
