package deployutil

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Deployment condition reasons.
const (
	// ReasonNewRSCreated: Progressing True, a new ReplicaSet was created.
	ReasonNewRSCreated = "NewReplicaSetCreated"
	// ReasonFoundNewRS: Progressing True, an existing ReplicaSet matches the
	// template.
	ReasonFoundNewRS = "FoundNewReplicaSet"
	// ReasonRSUpdated: Progressing True, the rollout made progress.
	ReasonRSUpdated = "ReplicaSetUpdated"
	// ReasonNewRSAvailable: Progressing True, the rollout is complete.
	ReasonNewRSAvailable = "NewReplicaSetAvailable"
	// ReasonTimedOut: Progressing False, the progress deadline passed.
	ReasonTimedOut = "ProgressDeadlineExceeded"
	// ReasonFailedRSCreate: Progressing False, creating the new ReplicaSet
	// failed.
	ReasonFailedRSCreate = "ReplicaSetCreateError"
	// ReasonPaused: Progressing Unknown, the deployment is paused.
	ReasonPaused = "DeploymentPaused"
	// ReasonResumed: Progressing Unknown, the deployment was resumed.
	ReasonResumed = "DeploymentResumed"
	// ReasonMinimumReplicasAvailable: Available True.
	ReasonMinimumReplicasAvailable = "MinimumReplicasAvailable"
	// ReasonMinimumReplicasUnavailable: Available False.
	ReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// NewDeploymentCondition returns a condition whose lastUpdateTime and
// lastTransitionTime are both now.
func NewDeploymentCondition(condType appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, message string, now time.Time) appsv1.DeploymentCondition {
	t := metav1.NewTime(now)
	return appsv1.DeploymentCondition{
		Type:               condType,
		Status:             status,
		LastUpdateTime:     t,
		LastTransitionTime: t,
		Reason:             reason,
		Message:            message,
	}
}

// GetDeploymentCondition returns a pointer into status.Conditions for the
// condition of type condType, or nil.
func GetDeploymentCondition(status *appsv1.DeploymentStatus, condType appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == condType {
			return &status.Conditions[i]
		}
	}
	return nil
}

// SetDeploymentCondition puts cond into status. If a condition of that type
// has the same status and reason, nothing changes (message and times stay).
// If only the reason differs, the old lastTransitionTime is kept. The new
// condition goes at the end of the list.
func SetDeploymentCondition(status *appsv1.DeploymentStatus, cond appsv1.DeploymentCondition) {
	cur := GetDeploymentCondition(status, cond.Type)
	if cur != nil && cur.Status == cond.Status && cur.Reason == cond.Reason {
		return
	}
	if cur != nil && cur.Status == cond.Status {
		cond.LastTransitionTime = cur.LastTransitionTime
	}
	status.Conditions = append(withoutCondition(status.Conditions, cond.Type), cond)
}

// RemoveDeploymentCondition removes the condition of type condType.
func RemoveDeploymentCondition(status *appsv1.DeploymentStatus, condType appsv1.DeploymentConditionType) {
	status.Conditions = withoutCondition(status.Conditions, condType)
}

// withoutCondition returns a new slice (nil when empty) without condType.
func withoutCondition(conds []appsv1.DeploymentCondition, condType appsv1.DeploymentConditionType) []appsv1.DeploymentCondition {
	var out []appsv1.DeploymentCondition
	for _, c := range conds {
		if c.Type != condType {
			out = append(out, c)
		}
	}
	return out
}

// ReplicaSetToDeploymentCondition converts a ReplicaSet condition; both
// times become the ReplicaSet condition's lastTransitionTime.
func ReplicaSetToDeploymentCondition(c appsv1.ReplicaSetCondition) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{
		Type:               appsv1.DeploymentConditionType(c.Type),
		Status:             c.Status,
		LastTransitionTime: c.LastTransitionTime,
		LastUpdateTime:     c.LastTransitionTime,
		Reason:             c.Reason,
		Message:            c.Message,
	}
}
