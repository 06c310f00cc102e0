package podutil

import (
	"reflect"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Reasons of the ReplicaFailure condition.
const (
	// ReasonFailedCreate: manageReplicas failed while the RS had fewer active
	// pods than desired.
	ReasonFailedCreate = "FailedCreate"
	// ReasonFailedDelete: manageReplicas failed while the RS had more active
	// pods than desired.
	ReasonFailedDelete = "FailedDelete"
)

// CalculateReplicaSetStatus computes the status the ReplicaSet controller
// writes after a sync. activePods are the active pods the RS claimed;
// terminatingCount is the number of its terminating pods; manageErr is the
// error manageReplicas returned (nil on success); now comes from the virtual
// clock.
//
//   - replicas = len(activePods);
//   - fullyLabeledReplicas = pods carrying every template label;
//   - readyReplicas = pods with Ready True;
//   - availableReplicas = ready pods available at now (see IsPodAvailable);
//   - terminatingReplicas = &terminatingCount (feature gate on);
//   - ReplicaFailure: added when manageErr != nil and the condition is
//     absent (True, reason FailedCreate when active < desired, FailedDelete
//     when active > desired, "" when equal; message manageErr.Error();
//     transition time now); removed when manageErr == nil; otherwise the
//     existing condition is kept untouched.
//
// Other fields (observedGeneration, other conditions) are carried over from
// rs.Status. rs is not modified. A nil spec.replicas counts as 1, the API
// default.
func CalculateReplicaSetStatus(rs *appsv1.ReplicaSet, activePods []*corev1.Pod, terminatingCount int, manageErr error, minReadySeconds int32, now time.Time) appsv1.ReplicaSetStatus {
	return ReplicaSetStatusFromCounts(rs, CountReplicaSetPods(rs, activePods, minReadySeconds, now), terminatingCount, manageErr, now)
}

// StatusCounts are the pod counts of a ReplicaSet status.
type StatusCounts struct {
	// Replicas is the number of active claimed pods; the others count
	// among them.
	Replicas, FullyLabeled, Ready, Available int32
}

// CountReplicaSetPods counts activePods for CalculateReplicaSetStatus.
func CountReplicaSetPods(rs *appsv1.ReplicaSet, activePods []*corev1.Pod, minReadySeconds int32, now time.Time) StatusCounts {
	var c StatusCounts
	for _, p := range activePods {
		if HasAllLabels(p.Labels, rs.Spec.Template.Labels) {
			c.FullyLabeled++
		}
		if IsPodReady(p) {
			c.Ready++
			if IsPodAvailable(p, minReadySeconds, now) {
				c.Available++
			}
		}
	}
	c.Replicas = int32(len(activePods))
	return c
}

// HasAllLabels reports whether set carries every pair of want (a pod is
// "fully labeled" when it carries all of its ReplicaSet's template labels).
func HasAllLabels(set, want map[string]string) bool {
	for k, v := range want {
		if sv, ok := set[k]; !ok || sv != v {
			return false
		}
	}
	return true
}

// ReplicaSetStatusFromCounts is CalculateReplicaSetStatus from the counts
// of the active claimed pods instead of the pods themselves.
func ReplicaSetStatusFromCounts(rs *appsv1.ReplicaSet, counts StatusCounts, terminatingCount int, manageErr error, now time.Time) appsv1.ReplicaSetStatus {
	status := rs.Status
	status.Conditions = copyConditions(rs.Status.Conditions)
	status.Replicas = counts.Replicas
	status.FullyLabeledReplicas = counts.FullyLabeled
	status.ReadyReplicas = counts.Ready
	status.AvailableReplicas = counts.Available
	terminating := int32(terminatingCount)
	status.TerminatingReplicas = &terminating

	existing := replicaFailureIndex(status.Conditions)
	switch {
	case manageErr != nil && existing < 0:
		reason := ""
		if diff := int(counts.Replicas) - int(desiredReplicas(rs)); diff < 0 {
			reason = ReasonFailedCreate
		} else if diff > 0 {
			reason = ReasonFailedDelete
		}
		status.Conditions = append(status.Conditions, appsv1.ReplicaSetCondition{
			Type:               appsv1.ReplicaSetReplicaFailure,
			Status:             corev1.ConditionTrue,
			LastTransitionTime: metav1.NewTime(now),
			Reason:             reason,
			Message:            manageErr.Error(),
		})
	case manageErr == nil && existing >= 0:
		status.Conditions = removeCondition(status.Conditions, existing)
	}
	return status
}

// StatusUnchanged reports whether the controller may skip the status write:
// the four counts are equal, terminatingReplicas is equal (both nil or the
// same value), rs.generation == rs.status.observedGeneration, and the
// conditions are deeply equal (a nil list differs from an empty one, as
// upstream's comparison does).
func StatusUnchanged(rs *appsv1.ReplicaSet, newStatus appsv1.ReplicaSetStatus) bool {
	old := rs.Status
	return old.Replicas == newStatus.Replicas &&
		old.FullyLabeledReplicas == newStatus.FullyLabeledReplicas &&
		old.ReadyReplicas == newStatus.ReadyReplicas &&
		old.AvailableReplicas == newStatus.AvailableReplicas &&
		int32PtrEqual(old.TerminatingReplicas, newStatus.TerminatingReplicas) &&
		rs.Generation == old.ObservedGeneration &&
		reflect.DeepEqual(old.Conditions, newStatus.Conditions)
}

// NextAvailabilityCheck returns when the controller should re-sync an RS to
// pick up pods that become available by the mere passage of time (§3.3 step
// 11). ok is false when no requeue is needed: minReadySeconds <= 0, or every
// ready pod is already available. Otherwise after is the time until the
// earliest ready pod with a Ready transition time reaches
// readySince + minReadySeconds; when no such pod exists (only ready pods
// without a transition time are unavailable) it is minReadySeconds.
//
// Upstream recomputes the earliest pod's delay against a fresh clock reading;
// the engine's clock does not move during a sync, so now serves both.
//
// Example: minReadySeconds=60, now=12:00:30, pods ready since 12:00:00 and
// 12:00:20 → after = 30s.
func NextAvailabilityCheck(pods []*corev1.Pod, minReadySeconds int32, now time.Time) (after time.Duration, ok bool) {
	if minReadySeconds <= 0 {
		return 0, false
	}
	minReady := time.Duration(minReadySeconds) * time.Second
	found := false
	for _, p := range pods {
		if !IsPodReady(p) || IsPodAvailable(p, minReadySeconds, now) {
			continue
		}
		ok = true
		since := PodReadySince(p)
		if since.IsZero() {
			continue
		}
		if d := since.Add(minReady).Sub(now); !found || d < after {
			after, found = d, true
		}
	}
	if !ok {
		return 0, false
	}
	if !found {
		return minReady, true
	}
	return after, true
}

func desiredReplicas(rs *appsv1.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

func replicaFailureIndex(conds []appsv1.ReplicaSetCondition) int {
	for i, c := range conds {
		if c.Type == appsv1.ReplicaSetReplicaFailure {
			return i
		}
	}
	return -1
}

// copyConditions copies the list, keeping nil as nil so StatusUnchanged's
// deep comparison sees the same shape.
func copyConditions(conds []appsv1.ReplicaSetCondition) []appsv1.ReplicaSetCondition {
	if conds == nil {
		return nil
	}
	out := make([]appsv1.ReplicaSetCondition, len(conds))
	copy(out, conds)
	return out
}

// removeCondition drops conds[i]; an emptied list becomes nil.
func removeCondition(conds []appsv1.ReplicaSetCondition, i int) []appsv1.ReplicaSetCondition {
	var out []appsv1.ReplicaSetCondition
	for k, c := range conds {
		if k != i {
			out = append(out, c)
		}
	}
	return out
}

func int32PtrEqual(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
