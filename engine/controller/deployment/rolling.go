package deployment

import (
	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// rolloutRolling is one step of a rolling update (BEHAVIOR §4.10): create
// the new ReplicaSet if needed, then either scale it up or scale old ones
// down (never both in one sync), clean up when complete, sync the status.
func (dc *Controller) rolloutRolling(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := withNew(oldRSs, newRS)
	// The fencepost resolution behind every number below (surge rounds up,
	// unavailable rounds down, the both-zero rule).
	dc.emit(deployutil.ExplainFenceposts(d))

	scaledUp, err := dc.reconcileNewReplicaSet(allRSs, newRS, d)
	if err != nil {
		return err
	}
	if scaledUp {
		return dc.syncRolloutStatus(allRSs, newRS, d)
	}
	scaledDown, err := dc.reconcileOldReplicaSets(allRSs, deployutil.FilterActive(oldRSs), newRS, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return dc.syncRolloutStatus(allRSs, newRS, d)
	}

	// Completeness is judged on the cached status, as upstream does.
	if deployutil.DeploymentComplete(d, &d.Status) {
		if err := dc.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncRolloutStatus(allRSs, newRS, d)
}

// reconcileNewReplicaSet is the scale-up step: the deployutil plan, executed.
// It reports whether the new ReplicaSet's size changed.
func (dc *Controller) reconcileNewReplicaSet(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error) {
	plan, err := deployutil.ReconcileNewReplicaSet(d, allRSs, newRS)
	dc.emit(plan.Math)
	if err != nil {
		return false, err
	}
	return dc.runPlan(d, plan.Plan, allRSs)
}

// reconcileOldReplicaSets is the scale-down step over the active old
// ReplicaSets: unhealthy replicas first, then available ones down to
// minAvailable. Write errors are swallowed (the step then reports false).
func (dc *Controller) reconcileOldReplicaSets(allRSs, oldRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error) {
	plan := deployutil.ReconcileOldReplicaSets(d, allRSs, oldRSs, newRS)
	dc.emit(plan.Math)
	return dc.runPlan(d, plan.Plan, allRSs)
}
