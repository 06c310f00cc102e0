package deployutil

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

// fractionIn is the get_replica_set_fraction / _proportion input.
type fractionIn struct {
	deploymentIn
	StatusReplicas int32             `json:"deployment_status_replicas"`
	RSAnnotations  map[string]string `json:"rs_annotations"`
	RSReplicas     int32             `json:"rs_replicas"`
	RSIsNull       bool              `json:"rs_is_null"`
	ToAdd          int32             `json:"to_add"`
	Added          int32             `json:"added"`
}

func (in fractionIn) objects(t *testing.T) (*appsv1.Deployment, *appsv1.ReplicaSet) {
	d := in.build(t)
	d.Status.Replicas = in.StatusReplicas
	if in.RSIsNull {
		return d, nil
	}
	rs := sizedRS("rs", in.RSReplicas)
	rs.Annotations = in.RSAnnotations
	return d, rs
}

func TestOracleGetReplicaSetFraction(t *testing.T) {
	runOracle(t, "get_replica_set_fraction", func(t *testing.T, c oracleCase) {
		var in fractionIn
		var want struct {
			Fraction int32 `json:"fraction"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d, rs := in.objects(t)
		if got := GetReplicaSetFraction(rs, d); got != want.Fraction {
			t.Fatalf("got %d, want %d", got, want.Fraction)
		}
	})
}

func TestOracleGetReplicaSetProportion(t *testing.T) {
	runOracle(t, "get_replica_set_proportion", func(t *testing.T, c oracleCase) {
		var in fractionIn
		var want struct {
			Proportion int32 `json:"proportion"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d, rs := in.objects(t)
		if got := GetReplicaSetProportion(rs, d, in.ToAdd, in.Added); got != want.Proportion {
			t.Fatalf("got %d, want %d", got, want.Proportion)
		}
	})
}

func TestOracleFindActiveOrLatest(t *testing.T) {
	runOracle(t, "find_active_or_latest", func(t *testing.T, c oracleCase) {
		var in struct {
			NewRS  *rsIn  `json:"newRS"`
			OldRSs []rsIn `json:"oldRSs"`
		}
		var want struct {
			Result *string `json:"result"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		got := FindActiveOrLatest(in.NewRS.build(t), buildRSs(t, in.OldRSs))
		switch {
		case want.Result == nil && got != nil:
			t.Fatalf("got %s, want nil", got.Name)
		case want.Result != nil && (got == nil || got.Name != *want.Result):
			t.Fatalf("got %v, want %s", got, *want.Result)
		}
	})
}

func TestOracleIsSaturated(t *testing.T) {
	runOracle(t, "is_saturated", func(t *testing.T, c oracleCase) {
		var in struct {
			DReplicas int32   `json:"deployment_replicas"`
			Available int32   `json:"rs_available"`
			Desired   *string `json:"rs_desired_annotation"`
			IsNull    bool    `json:"rs_is_null"`
			Replicas  int32   `json:"rs_replicas"`
		}
		var want struct {
			Value bool `json:"value"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := newDeployment(t, in.DReplicas, "RollingUpdate", nil, nil)
		var rs *appsv1.ReplicaSet
		if !in.IsNull {
			rs = sizedRS("rs", in.Replicas)
			rs.Status.AvailableReplicas = in.Available
			if in.Desired != nil {
				rs.Annotations = map[string]string{DesiredReplicasAnnotation: *in.Desired}
			}
		}
		if got := IsSaturated(d, rs); got != want.Value {
			t.Fatalf("got %v, want %v", got, want.Value)
		}
	})
}

func TestOracleScale(t *testing.T) {
	runOracle(t, "scale", func(t *testing.T, c oracleCase) {
		var in struct {
			Deployment     deploymentIn `json:"deployment"`
			StatusReplicas int32        `json:"deploymentStatusReplicas"`
			NewRS          *rsIn        `json:"newRS"`
			OldRSs         []rsIn       `json:"oldRSs"`
		}
		var want struct {
			Updates []updateOut      `json:"updates"`
			Final   map[string]int32 `json:"final_replicas"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := in.Deployment.build(t)
		d.Status.Replicas = in.StatusReplicas
		newRS := in.NewRS.build(t)
		old := buildRSs(t, in.OldRSs)
		initial := append(copyRSs(old), newRS)
		p := Scale(d, newRS, old)
		checkWrites(t, p.Writes, want.Updates)
		checkFinal(t, initial, p.Writes, want.Final)
		if p.Math.Text() == "" {
			t.Error("empty text")
		}
	})
}

func TestIsScalingEvent(t *testing.T) {
	d := newDeployment(t, 5, "RollingUpdate", nil, nil)
	a := sizedRS("a", 3)
	a.Annotations = map[string]string{DesiredReplicasAnnotation: "x"}
	b := sizedRS("b", 2)
	b.Annotations = map[string]string{DesiredReplicasAnnotation: "5"}
	idle := sizedRS("idle", 0)
	idle.Annotations = map[string]string{DesiredReplicasAnnotation: "9"}
	if ev, m := IsScalingEvent(d, b, []*appsv1.ReplicaSet{a, idle}); ev || m.Trigger != "" {
		t.Fatalf("invalid and inactive annotations must be ignored: %v %+v", ev, m)
	}
	b.Annotations[DesiredReplicasAnnotation] = "4"
	ev, m := IsScalingEvent(d, b, []*appsv1.ReplicaSet{a, idle})
	if !ev || m.Trigger != "b" {
		t.Fatalf("got %v %+v", ev, m)
	}
	want := `isScalingEvent: replicas 5; active: a desired "x" ignored, b desired 4 -> scaling event (b)`
	if m.Text() != want {
		t.Errorf("got  %s\nwant %s", m.Text(), want)
	}
}

// TestScaleWorkedExample checks Scale's doc example and its trace line.
func TestScaleWorkedExample(t *testing.T) {
	d := newDeployment(t, 10, "RollingUpdate", nil, nil)
	ann := func(rs *appsv1.ReplicaSet) *appsv1.ReplicaSet {
		rs.Annotations = map[string]string{DesiredReplicasAnnotation: "5", MaxReplicasAnnotation: "5"}
		return rs
	}
	v1, v2 := ann(sizedRS("foo-v1", 3)), ann(sizedRS("foo-v2", 2))
	v1.CreationTimestamp.Time = v1.CreationTimestamp.Add(1)
	v2.CreationTimestamp.Time = v1.CreationTimestamp.Add(2)
	p := Scale(d, v2, []*appsv1.ReplicaSet{v1})
	want := "scale: proportional: allowed = replicas 10 + maxSurge 0 = 10; current 5; toAdd +5 (larger first, ties newer first): " +
		"foo-v1 3: fraction round(3*10/5=6)-3 = +3, proportion min(+3, +5) = +3 -> 6; " +
		"foo-v2 2: fraction round(2*10/5=4)-2 = +2, proportion min(+2, +2) = +2 -> 4; leftover +0 -> foo-v1"
	if got := p.Math.Text(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if len(p.Writes) != 2 || p.Writes[0].EventMessage() != "Scaled up replica set foo-v1 from 3 to 6" {
		t.Errorf("writes %+v", p.Writes)
	}
	b, err := json.Marshal(p.Math)
	if err != nil || !json.Valid(b) {
		t.Fatalf("json %s %v", b, err)
	}
}

func TestScaleDoesNotMutateReplicaSets(t *testing.T) {
	d := newDeployment(t, 12, "RollingUpdate", nil, nil)
	rs := sizedRS("only", 10)
	rs.Annotations = map[string]string{DesiredReplicasAnnotation: "10"}
	p := Scale(d, rs, nil)
	if *rs.Spec.Replicas != 10 || rs.Annotations[DesiredReplicasAnnotation] != "10" || len(p.Writes) != 1 {
		t.Fatalf("input mutated or wrong plan: %v %+v", *rs.Spec.Replicas, p)
	}
	if p.Math.Path != ScaleActiveOrLatest || p.Math.Text() != "scale: single active or latest RS only 10 -> 12" {
		t.Errorf("math %+v %q", p.Math, p.Math.Text())
	}
}
