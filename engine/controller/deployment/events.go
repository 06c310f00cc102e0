package deployment

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
)

// Event reasons (BEHAVIOR §4.14).
const (
	// ReasonSelectingAll: the Deployment's selector is empty.
	ReasonSelectingAll = "SelectingAll"
	// ReasonScalingReplicaSet: a ReplicaSet's size was changed.
	ReasonScalingReplicaSet = "ScalingReplicaSet"
	// ReasonReplicaSetCreateError: creating the new ReplicaSet failed (also
	// a Progressing condition reason).
	ReasonReplicaSetCreateError = "ReplicaSetCreateError"
	// ReasonRollbackRevisionNotFound: no ReplicaSet carries the rollback's
	// target revision.
	ReasonRollbackRevisionNotFound = "DeploymentRollbackRevisionNotFound"
	// ReasonRollbackTemplateUnchanged: the rollback target's template equals
	// the current one.
	ReasonRollbackTemplateUnchanged = "DeploymentRollbackTemplateUnchanged"
	// ReasonRollback: the template was rolled back.
	ReasonRollback = "DeploymentRollback"
)

// deploymentGVK is what involvedObject names.
var deploymentGVK = appsv1.SchemeGroupVersion.WithKind("Deployment")

// recordEvent creates a Kubernetes Event about d (fire-and-forget, as
// upstream's recorder).
func (dc *Controller) recordEvent(d *appsv1.Deployment, eventType, reason, message string) {
	dc.events.Event(d, deploymentGVK, eventType, reason, message)
}

// eventf is recordEvent with a format.
func (dc *Controller) eventf(d *appsv1.Deployment, eventType, reason, format string, args ...any) {
	dc.recordEvent(d, eventType, reason, fmt.Sprintf(format, args...))
}
