package deployment

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// setCondition applies deployutil.SetDeploymentCondition to d's status and
// records a ConditionChange when the condition actually changed.
func (dc *Controller) setCondition(d *appsv1.Deployment, cond appsv1.DeploymentCondition) {
	before := deployutil.GetDeploymentCondition(&d.Status, cond.Type)
	var prev *appsv1.DeploymentCondition
	if before != nil {
		c := *before
		prev = &c
	}
	deployutil.SetDeploymentCondition(&d.Status, cond)
	after := deployutil.GetDeploymentCondition(&d.Status, cond.Type)
	if prev != nil && after != nil && reflect.DeepEqual(*prev, *after) {
		return
	}
	dc.emit(conditionChange(d, cond.Type, prev, after))
}

// emitConditionDiff records a ConditionChange for every condition type whose
// value differs between before and after (in a fixed type order).
func (dc *Controller) emitConditionDiff(d *appsv1.Deployment, before, after *appsv1.DeploymentStatus) {
	for _, t := range []appsv1.DeploymentConditionType{appsv1.DeploymentAvailable, appsv1.DeploymentProgressing, appsv1.DeploymentReplicaFailure} {
		b := deployutil.GetDeploymentCondition(before, t)
		a := deployutil.GetDeploymentCondition(after, t)
		if b == nil && a == nil {
			continue
		}
		if b != nil && a != nil && b.Status == a.Status && b.Reason == a.Reason && b.Message == a.Message {
			continue
		}
		dc.emit(conditionChange(d, t, b, a))
	}
}

// conditionChange builds the record of a condition going from prev to cur
// (either may be nil).
func conditionChange(d *appsv1.Deployment, t appsv1.DeploymentConditionType, prev, cur *appsv1.DeploymentCondition) ConditionChange {
	ch := ConditionChange{Deployment: d.Namespace + "/" + d.Name, Type: string(t)}
	if prev != nil {
		ch.From = string(prev.Status) + "/" + prev.Reason
	}
	if cur != nil {
		ch.Status, ch.Reason, ch.Message = string(cur.Status), cur.Reason, cur.Message
	}
	return ch
}

// checkPausedConditions adds the DeploymentPaused or DeploymentResumed
// Progressing condition when spec.paused flipped, and writes it with
// UpdateStatus (BEHAVIOR §4.5). Nothing happens without a progress deadline
// or after the deadline was exceeded.
func (dc *Controller) checkPausedConditions(d *appsv1.Deployment) error {
	if !deployutil.HasProgressDeadline(d) {
		return nil
	}
	cond := deployutil.GetDeploymentCondition(&d.Status, appsv1.DeploymentProgressing)
	if cond != nil && cond.Reason == deployutil.ReasonTimedOut {
		// A timed-out rollout keeps its condition while paused.
		return nil
	}
	pausedCondExists := cond != nil && cond.Reason == deployutil.ReasonPaused
	now := dc.clock.Now()
	switch {
	case d.Spec.Paused && !pausedCondExists:
		dc.setCondition(d, deployutil.NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionUnknown, deployutil.ReasonPaused, "Deployment is paused", now))
	case !d.Spec.Paused && pausedCondExists:
		dc.setCondition(d, deployutil.NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionUnknown, deployutil.ReasonResumed, "Deployment is resumed", now))
	default:
		return nil
	}
	return dc.writeStatus(d)
}
