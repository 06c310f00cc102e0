package deployment

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// syncDeployment is upstream's syncDeployment, step by step in its order
// (BEHAVIOR §4.3).
func (dc *Controller) syncDeployment(key string) error {
	ns, name, ok := strings.Cut(key, "/")
	if !ok || strings.Contains(name, "/") {
		return &kindError{msg: fmt.Sprintf("unexpected key format: %q", key), kind: ErrBadKey}
	}
	cached, found := dc.dInformer.Store().Get(ns + "/" + name).(*appsv1.Deployment)
	if !found {
		dc.setPath(key, PathNotFound, "deployment has been deleted")
		return nil
	}
	// Never mutate the cache: d is this sync's private copy, and every
	// Deployment write below sends it with the cached resourceVersion.
	d := cached.DeepCopy()

	if reflect.DeepEqual(d.Spec.Selector, &metav1.LabelSelector{}) {
		dc.setPath(key, PathSelectingAll, "selector is empty")
		dc.recordEvent(d, corev1.EventTypeWarning, ReasonSelectingAll, "This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			_ = dc.writeStatus(d)
		}
		return nil
	}

	rsList, err := dc.getReplicaSetsForDeployment(d)
	if err != nil {
		return err
	}
	if d.DeletionTimestamp != nil {
		dc.setPath(key, PathStatusOnly, "deployment is being deleted")
		return dc.syncStatusOnly(d, rsList)
	}

	if err := dc.checkPausedConditions(d); err != nil {
		return err
	}

	if d.Spec.Paused {
		dc.setPath(key, PathPaused, "spec.paused is true")
		return dc.sync(d, rsList)
	}

	if rev, ok := rollbackTo(d); ok {
		dc.setPath(key, PathRollback, fmt.Sprintf("annotation %s=%d", deployutil.RollbackToAnnotation, rev))
		return dc.rollback(d, rsList, rev)
	}

	scaling, why, err := dc.isScalingEvent(d, rsList)
	if err != nil {
		return err
	}
	if scaling {
		dc.setPath(key, PathScalingEvent, why)
		return dc.sync(d, rsList)
	}

	switch d.Spec.Strategy.Type {
	case appsv1.RecreateDeploymentStrategyType:
		dc.setPath(key, PathRecreate, "strategy Recreate; "+why)
		// Upstream builds the pod map before the first branch; only
		// Recreate reads it, and nothing a sync does reaches the pod cache
		// before the sync ends (informers apply events in their own
		// steps), so building it here gives the same map.
		return dc.rolloutRecreate(d, rsList, dc.podMap(rsList))
	case appsv1.RollingUpdateDeploymentStrategyType:
		dc.setPath(key, PathRollingUpdate, "strategy RollingUpdate; "+why)
		return dc.rolloutRolling(d, rsList)
	}
	dc.setPath(key, PathUnknown, fmt.Sprintf("strategy %q", d.Spec.Strategy.Type))
	return &kindError{
		msg:  fmt.Sprintf("unexpected deployment strategy type: %s", d.Spec.Strategy.Type),
		kind: ErrUnexpectedStrategy,
	}
}

// rollbackTo returns the revision of the rollback annotation when it is set
// and parses as an int64.
func rollbackTo(d *appsv1.Deployment) (int64, bool) {
	v, ok := d.Annotations[deployutil.RollbackToAnnotation]
	if !ok {
		return 0, false
	}
	rev, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	return rev, true
}

// isScalingEvent reports whether an active ReplicaSet's desired-replicas
// annotation disagrees with spec.replicas, after syncing the revision
// (create=false), and explains the answer.
func (dc *Controller) isScalingEvent(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (bool, string, error) {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return false, "", err
	}
	scaling, m := deployutil.IsScalingEvent(d, newRS, oldRSs)
	dc.emit(m)
	if !scaling {
		return false, "no scaling event", nil
	}
	for _, row := range m.Checked {
		if row.Name == m.Trigger {
			return true, fmt.Sprintf("RS %s has desired-replicas %s != %d", row.Name, row.Desired, m.Replicas), nil
		}
	}
	return true, "scaling event", nil
}

// syncStatusOnly is the path of a Deployment being deleted: sync the
// revision without creating anything, then the status.
func (dc *Controller) syncStatusOnly(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	return dc.syncDeploymentStatus(withNew(oldRSs, newRS), newRS, d)
}

// sync is the paused and scaling-event path: proportional scaling, cleanup
// while paused, status.
func (dc *Controller) sync(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	if err := dc.scale(d, newRS, oldRSs); err != nil {
		return err
	}
	if _, pending := rollbackTo(d); d.Spec.Paused && !pending {
		if err := dc.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncDeploymentStatus(withNew(oldRSs, newRS), newRS, d)
}

// withNew is upstream's append(oldRSs, newRS): a fresh slice, with a nil
// newRS kept as a nil entry (the deployutil sums skip it).
func withNew(oldRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	out := make([]*appsv1.ReplicaSet, 0, len(oldRSs)+1)
	return append(append(out, oldRSs...), newRS)
}

// writeStatus sends d with UpdateStatus, using d's (cached) resourceVersion,
// and discards the returned object, as upstream does.
func (dc *Controller) writeStatus(d *appsv1.Deployment) error {
	_, err := dc.server.UpdateDeploymentStatus(source, d)
	return err
}

// writeDeployment sends d with Update, using d's (cached) resourceVersion,
// and discards the returned object.
func (dc *Controller) writeDeployment(d *appsv1.Deployment) error {
	_, err := dc.server.UpdateDeployment(source, d)
	return err
}
