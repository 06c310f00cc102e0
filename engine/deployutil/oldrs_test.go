package deployutil

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

func TestOracleReconcileOldReplicaSets(t *testing.T) {
	runOracle(t, "reconcile_old_replica_sets", func(t *testing.T, c oracleCase) {
		var in struct {
			deploymentIn
			NewRS  rsIn   `json:"newRS"`
			OldRSs []rsIn `json:"oldRSs"`
		}
		var want struct {
			Scaled  bool             `json:"scaled"`
			Updates []updateOut      `json:"updates"`
			Final   map[string]int32 `json:"final_replicas"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		newRS := in.NewRS.build(t)
		old := buildRSs(t, in.OldRSs)
		all := append(copyRSs(old), newRS)
		p := ReconcileOldReplicaSets(in.build(t), all, old, newRS)
		checkWrites(t, p.Writes, want.Updates)
		checkFinal(t, all, p.Writes, want.Final)
		if p.Scaled != want.Scaled {
			t.Errorf("scaled %v, want %v", p.Scaled, want.Scaled)
		}
		if p.OnError != ErrorSwallow {
			t.Errorf("policy %v", p.OnError)
		}
	})
}

func TestOracleCleanupUnhealthyReplicas(t *testing.T) {
	runOracle(t, "cleanup_unhealthy_replicas", func(t *testing.T, c oracleCase) {
		var in struct {
			Deployment deploymentIn `json:"deployment"`
			Max        int32        `json:"maxCleanupCount"`
			OldRSs     []rsIn       `json:"oldRSs"`
		}
		var want struct {
			Count   int32            `json:"cleanupCount"`
			Error   bool             `json:"error"`
			Updates []updateOut      `json:"updates"`
			Final   map[string]int32 `json:"final_replicas"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		old := buildRSs(t, in.OldRSs)
		res, err := CleanupUnhealthyReplicas(in.Deployment.build(t), old, in.Max)
		if (err != nil) != want.Error || res.Count != want.Count {
			t.Fatalf("count %d err %v; want %d error=%v", res.Count, err, want.Count, want.Error)
		}
		checkWrites(t, res.Writes, want.Updates)
		checkFinal(t, old, res.Writes, want.Final)
		for _, rs := range res.OldRSs {
			if *rs.Spec.Replicas != want.Final[rs.Name] {
				t.Errorf("returned %s at %d, want %d", rs.Name, *rs.Spec.Replicas, want.Final[rs.Name])
			}
		}
	})
}

func TestOracleScaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	runOracle(t, "scale_down_old_replica_sets_for_rolling_update", func(t *testing.T, c oracleCase) {
		var in struct {
			deploymentIn
			AllRSs   []rsIn   `json:"allRSs"`
			OldNames []string `json:"oldRSNames"`
		}
		var want struct {
			ScaledDown int32            `json:"scaledDown"`
			Updates    []updateOut      `json:"updates"`
			Final      map[string]int32 `json:"final_replicas"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		all := buildRSs(t, in.AllRSs)
		var old []*appsv1.ReplicaSet
		for _, n := range in.OldNames {
			for _, rs := range all {
				if rs.Name == n {
					old = append(old, rs)
				}
			}
		}
		res, err := ScaleDownOldReplicaSetsForRollingUpdate(in.build(t), all, old)
		if err != nil || res.Total != want.ScaledDown {
			t.Fatalf("total %d err %v, want %d", res.Total, err, want.ScaledDown)
		}
		checkWrites(t, res.Writes, want.Updates)
		checkFinal(t, all, res.Writes, want.Final)
	})
}

// TestReconcileOldSwallowsPlannedError: an old RS with more available than
// spec makes cleanupUnhealthyReplicas fail; upstream swallows it and reports
// not scaled, but the writes issued before the failure stay issued.
func TestReconcileOldSwallowsPlannedError(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`0`), json.RawMessage(`2`))
	a := sizedRS("a", 4)
	a.Status.AvailableReplicas = 2
	a.CreationTimestamp.Time = a.CreationTimestamp.Add(1)
	b := sizedRS("b", 4)
	b.Status.AvailableReplicas = 6
	b.CreationTimestamp.Time = a.CreationTimestamp.Add(2)
	newRS := sizedRS("new", 4)
	newRS.Status.AvailableReplicas = 4
	old := []*appsv1.ReplicaSet{b, a}
	p := ReconcileOldReplicaSets(d, append(copyRSs(old), newRS), old, newRS)
	if p.Scaled || len(p.Writes) != 1 || p.Writes[0].Name != "a" || p.Writes[0].Replicas != 2 {
		t.Fatalf("plan %+v", p)
	}
	if !strings.Contains(p.Math.Error, "invalid request to scale down b 4 -> 6") || p.Math.Stopped != "error" {
		t.Errorf("math %+v", p.Math)
	}
	if _, err := CleanupUnhealthyReplicas(d, old, 10); !errors.Is(err, ErrInvalidScaleDown) {
		t.Errorf("err %v", err)
	}
	if _, scaled, err := p.Run(func(RSWrite) error { return errors.New("boom") }); scaled || err != nil {
		t.Errorf("swallow: scaled %v err %v", scaled, err)
	}
}

func TestReconcileOldText(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", json.RawMessage(`0`), json.RawMessage(`2`))
	old := sizedRS("foo-old", 10)
	old.Status.AvailableReplicas = 9
	newRS := sizedRS("foo-new", 0)
	p := ReconcileOldReplicaSets(d, []*appsv1.ReplicaSet{old, newRS}, []*appsv1.ReplicaSet{old}, newRS)
	want := "reconcileOldReplicaSets: maxScaledDown = allPods 10 - minAvailable (10-2=8) - newRS unavailable (0-0=0) = 2; " +
		"cleanup unhealthy: foo-old 10->9 (-1) [1]; available 9 - minAvailable 8 = 1: foo-old 9->8 (-1); total 2"
	if got := p.Math.Text(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if len(p.Writes) != 2 || p.Writes[1].FromReplicas != 9 {
		t.Errorf("second write must start from the first's result: %+v", p.Writes)
	}
	blocked := sizedRS("foo-new", 2)
	old2 := sizedRS("foo-old", 8)
	old2.Status.AvailableReplicas = 8
	p = ReconcileOldReplicaSets(d, []*appsv1.ReplicaSet{old2, blocked}, []*appsv1.ReplicaSet{old2}, blocked)
	want = "reconcileOldReplicaSets: maxScaledDown = allPods 10 - minAvailable (10-2=8) - newRS unavailable (2-0=2) = 0 <= 0 -> no scale down"
	if got := p.Math.Text(); got != want || p.Scaled {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
