package deployment

import (
	"fmt"
	"reflect"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// syncDeploymentStatus writes the status computed from the ReplicaSets when
// it differs from the cached one. The Progressing condition is not touched
// and there is no deadline requeue on this path.
func (dc *Controller) syncDeploymentStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) error {
	st := deployutil.CalculateStatus(allRSs, newRS, d, dc.clock.Now())
	changed := !reflect.DeepEqual(d.Status, st)
	dc.emit(StatusWrite{Deployment: d.Namespace + "/" + d.Name, Step: "syncDeploymentStatus", Changed: changed, Summary: statusSummary(&st)})
	if !changed {
		return nil
	}
	dc.emitConditionDiff(d, &d.Status, &st)
	d.Status = st
	return dc.writeStatus(d)
}

// syncRolloutStatus computes the status and Progressing condition of a
// rollout step (BEHAVIOR §4.12). A changed status is written with
// UpdateStatus; an unchanged one schedules the progress-deadline re-check
// (AddAfter remaining+1s, or AddRateLimited under 1s).
func (dc *Controller) syncRolloutStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) error {
	dec := deployutil.SyncRolloutStatus(allRSs, newRS, d, dc.clock.Now())
	dc.emit(dec)
	if !dec.Changed {
		dc.requeueStuckDeployment(d, dec.Requeue)
		return nil
	}
	dc.emitConditionDiff(d, &d.Status, &dec.NewStatus)
	d.Status = dec.NewStatus
	return dc.writeStatus(d)
}

// requeueStuckDeployment schedules the re-check decided by
// deployutil.RequeueStuckDeployment.
func (dc *Controller) requeueStuckDeployment(d *appsv1.Deployment, m *deployutil.RequeueMath) {
	if m == nil {
		return
	}
	key := d.Namespace + "/" + d.Name
	switch m.Decision {
	case deployutil.RequeueRateLimited:
		dc.queue.AddRateLimited(key, "progress deadline check: less than 1s left")
	case deployutil.RequeueAfter:
		dc.queue.AddAfter(key, fmt.Sprintf("progress deadline check in %s", m.AddAfter), m.AddAfter)
	}
}

// statusSummary renders "replicas/updated/ready/available/unavailable".
func statusSummary(s *appsv1.DeploymentStatus) string {
	return fmt.Sprintf("%d/%d/%d/%d/%d", s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas)
}
