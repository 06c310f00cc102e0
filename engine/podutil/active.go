package podutil

import (
	"time"

	corev1 "k8s.io/api/core/v1"
)

// IsPodActive reports whether a pod still counts towards a ReplicaSet's
// replicas: its phase is neither Succeeded nor Failed and it has no
// deletionTimestamp. Pending and Unknown pods are active.
func IsPodActive(pod *corev1.Pod) bool {
	return !isTerminalPhase(pod.Status.Phase) && pod.DeletionTimestamp == nil
}

// IsPodTerminating reports whether a pod is being deleted but has not reached
// a terminal phase: it has a deletionTimestamp and its phase is neither
// Succeeded nor Failed. These pods feed status.terminatingReplicas.
func IsPodTerminating(pod *corev1.Pod) bool {
	return pod.DeletionTimestamp != nil && !isTerminalPhase(pod.Status.Phase)
}

func isTerminalPhase(phase corev1.PodPhase) bool {
	return phase == corev1.PodSucceeded || phase == corev1.PodFailed
}

// FilterActivePods returns the active pods of pods, in their input order. The
// result is a new slice; the pods themselves are shared, not copied.
func FilterActivePods(pods []*corev1.Pod) []*corev1.Pod {
	active := make([]*corev1.Pod, 0, len(pods))
	for _, p := range pods {
		if IsPodActive(p) {
			active = append(active, p)
		}
	}
	return active
}

// readyCondition returns the pod's Ready condition, or nil when it has none.
func readyCondition(pod *corev1.Pod) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodReady {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether the pod's Ready condition has status True.
func IsPodReady(pod *corev1.Pod) bool {
	c := readyCondition(pod)
	return c != nil && c.Status == corev1.ConditionTrue
}

// PodReadySince returns the lastTransitionTime of a ready pod's Ready
// condition. It returns the zero time when the pod is not ready or the
// condition carries no transition time.
func PodReadySince(pod *corev1.Pod) time.Time {
	c := readyCondition(pod)
	if c == nil || c.Status != corev1.ConditionTrue {
		return time.Time{}
	}
	return c.LastTransitionTime.Time
}

// IsPodAvailable reports whether a pod is available at now: it is ready, and
// either minReadySeconds is 0 or it has been ready for at least
// minReadySeconds. The bound is inclusive (v1.36 behaviour). A ready pod
// without a Ready transition time is never available when minReadySeconds > 0.
//
// Example: a pod ready since 12:00:00 with minReadySeconds=60 is not
// available at 12:00:59 and is available at exactly 12:01:00.
func IsPodAvailable(pod *corev1.Pod, minReadySeconds int32, now time.Time) bool {
	if !IsPodReady(pod) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	since := PodReadySince(pod)
	if since.IsZero() {
		return false
	}
	return !since.Add(time.Duration(minReadySeconds) * time.Second).After(now)
}
