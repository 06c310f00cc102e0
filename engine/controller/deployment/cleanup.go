package deployment

import (
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// cleanupDeployment deletes the old ReplicaSets beyond
// spec.revisionHistoryLimit that deployutil.CleanupDeployment selects
// (BEHAVIOR §4.11), with default delete options (Background cascade). The
// first error other than NotFound aborts.
func (dc *Controller) cleanupDeployment(oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) error {
	plan := deployutil.CleanupDeployment(d, oldRSs)
	if plan.Disabled || plan.Diff <= 0 {
		// Nothing to decide: not worth a record on every complete sync.
		return nil
	}
	dc.emit(plan)
	for _, name := range plan.Delete {
		if err := dc.server.DeleteReplicaSet(source, d.Namespace, name, apiserver.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}
