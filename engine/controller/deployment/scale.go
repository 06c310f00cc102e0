package deployment

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// runPlan executes a deployutil plan: one ReplicaSet Update per write, in
// order, each sent with the resourceVersion of the object it applies to (the
// cached one, or what the server returned for an earlier write of the same
// plan). A successful write that changed the size emits the
// ScalingReplicaSet event. It returns what the step returns (Plan.Run).
func (dc *Controller) runPlan(d *appsv1.Deployment, p deployutil.Plan, rss []*appsv1.ReplicaSet) (bool, error) {
	current := make(map[string]*appsv1.ReplicaSet, len(rss))
	for _, rs := range rss {
		if rs != nil {
			current[rs.Name] = rs
		}
	}
	_, scaled, err := p.Run(func(w deployutil.RSWrite) error {
		rs, ok := current[w.Name]
		if !ok {
			return fmt.Errorf("plan names unknown replica set %q", w.Name)
		}
		updated, err := dc.server.UpdateReplicaSet(source, w.Apply(rs))
		if err != nil {
			return err
		}
		current[w.Name] = updated
		if w.SizeChanged {
			dc.recordEvent(d, corev1.EventTypeNormal, ReasonScalingReplicaSet, w.EventMessage())
		}
		return nil
	})
	return scaled, err
}

// scaleReplicaSetAndRecordEvent scales rs to n unless it already has n
// (upstream's forceUpdate=false path), refreshing the desired-replicas and
// max-replicas annotations, and reports whether the size changed.
func (dc *Controller) scaleReplicaSetAndRecordEvent(rs *appsv1.ReplicaSet, n int32, d *appsv1.Deployment) (bool, error) {
	if rs.Spec.Replicas != nil && *rs.Spec.Replicas == n {
		return false, nil
	}
	op := deployutil.ScaleOpUp
	if rs.Spec.Replicas != nil && *rs.Spec.Replicas > n {
		op = deployutil.ScaleOpDown
	}
	desired := replicasOf(d)
	w := deployutil.RSWrite{
		Name:              rs.Name,
		FromReplicas:      replicasOfRS(rs),
		Replicas:          n,
		DesiredAnnotation: fmt.Sprint(desired),
		MaxAnnotation:     fmt.Sprint(desired + deployutil.MaxSurge(d)),
		SizeChanged:       true,
		Op:                op,
	}
	p := deployutil.Plan{Writes: []deployutil.RSWrite{w}, OnError: deployutil.ErrorReturn, Scaled: true}
	return dc.runPlan(d, p, []*appsv1.ReplicaSet{rs})
}

// scale is upstream's scale (BEHAVIOR §4.7): the single active (or latest)
// ReplicaSet takes spec.replicas; a saturated new ReplicaSet empties the
// old ones; otherwise a RollingUpdate Deployment spreads the difference
// proportionally. The first failed write aborts with its error.
func (dc *Controller) scale(d *appsv1.Deployment, newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) error {
	plan := deployutil.Scale(d, newRS, oldRSs)
	if plan.Math.Path == deployutil.ScaleProportional {
		dc.emit(deployutil.ExplainFenceposts(d))
	}
	dc.emit(plan.Math)
	_, err := dc.runPlan(d, plan.Plan, withNew(oldRSs, newRS))
	return err
}

// replicasOf is d's spec.replicas (defaulted by the API server, so never nil
// in practice; nil reads as 0).
func replicasOf(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 0
	}
	return *d.Spec.Replicas
}

// replicasOfRS is rs's spec.replicas (nil reads as 0).
func replicasOfRS(rs *appsv1.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 0
	}
	return *rs.Spec.Replicas
}
