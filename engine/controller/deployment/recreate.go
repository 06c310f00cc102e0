package deployment

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// rolloutRecreate is one step of a Recreate rollout (BEHAVIOR §4.10): scale
// every old ReplicaSet to 0, wait until no old pod runs, then create the new
// ReplicaSet at full size.
func (dc *Controller) rolloutRecreate(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet, pods []rsPods) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	allRSs := withNew(oldRSs, newRS)
	activeOld := deployutil.FilterActive(oldRSs)

	scaledDown := false
	for _, rs := range activeOld {
		scaled, err := dc.scaleReplicaSetAndRecordEvent(rs, 0, d)
		if err != nil {
			return err
		}
		scaledDown = scaledDown || scaled
	}
	if scaledDown {
		dc.emit(Note{Message: fmt.Sprintf("recreate %s/%s: scaled %d old replica sets to 0", d.Namespace, d.Name, len(activeOld))})
		return dc.syncRolloutStatus(allRSs, newRS, d)
	}

	if running, why := oldPodsRunning(newRS, oldRSs, pods); running {
		dc.emit(Note{Message: fmt.Sprintf("recreate %s/%s: waiting, old pods running (%s)", d.Namespace, d.Name, why)})
		return dc.syncRolloutStatus(allRSs, newRS, d)
	}

	if newRS == nil {
		newRS, oldRSs, err = dc.getAllReplicaSetsAndSyncRevision(d, rsList, true)
		if err != nil {
			return err
		}
		allRSs = withNew(oldRSs, newRS)
	}
	if _, err := dc.scaleReplicaSetAndRecordEvent(newRS, replicasOf(d), d); err != nil {
		return err
	}
	if deployutil.DeploymentComplete(d, &d.Status) {
		if err := dc.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncRolloutStatus(allRSs, newRS, d)
}

// oldPodsRunning reports whether any old pod may still run: some old
// ReplicaSet reports status.replicas > 0, or a pod of a ReplicaSet other
// than newRS is in any phase but Failed or Succeeded (Pending, Running,
// Unknown and empty all count, terminating pods included).
func oldPodsRunning(newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet, pods []rsPods) (bool, string) {
	if n := deployutil.StatusReplicas(oldRSs); n > 0 {
		return true, fmt.Sprintf("old replica sets report %d replicas", n)
	}
	for _, entry := range pods {
		if newRS != nil && entry.uid == newRS.UID {
			continue
		}
		for _, pod := range entry.pods {
			switch pod.Status.Phase {
			case corev1.PodFailed, corev1.PodSucceeded:
				continue
			}
			return true, fmt.Sprintf("pod %s is %q", pod.Name, pod.Status.Phase)
		}
	}
	return false, ""
}
