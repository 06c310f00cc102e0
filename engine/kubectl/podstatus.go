package kubectl

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// nodeUnreachableReason is the pod status reason set on pods of a node that
// stopped responding.
const nodeUnreachableReason = "NodeLost"

// podRow is what `kubectl get pods` shows of one pod.
type podRow struct {
	ready, total int
	// status is the STATUS column (see podStatus).
	status   string
	restarts int32
	// lastRestart is the latest container termination; zero when none.
	lastRestart metav1.Time
}

// podStatus computes the STATUS, READY and RESTARTS columns the way kubectl
// does: start from the phase (or status.reason); a waiting reason
// (ContainerCreating, CrashLoopBackOff...) or terminated reason (Completed,
// Error...) of a container wins, the last container in the list having the
// final say ("ExitCode:N" or "Signal:N" when a terminated container gives no
// reason); "Completed" with a container still running reads "Running" (or
// "NotReady" without a Ready condition); an init container still working
// shows "Init:i/n" or its own reason; a pod with a deletionTimestamp reads
// "Terminating" unless its phase is terminal ("Unknown" when its node is
// lost).
//
// Native sidecars (init containers with restartPolicy Always) count as
// containers: they add to the total, a started one lets initialization go
// on and adds to READY when ready, and once the pod is initialized their
// restarts (and last restart time) are kept while other init containers'
// are dropped.
func podStatus(pod *corev1.Pod) podRow {
	row := podRow{total: len(pod.Spec.Containers)}
	reason := string(pod.Status.Phase)
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Reason == corev1.PodReasonSchedulingGated {
			reason = corev1.PodReasonSchedulingGated
		}
	}
	sidecars := map[string]bool{}
	for _, c := range pod.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecars[c.Name] = true
			row.total++
		}
	}
	// sidecarRow holds the sidecars' restarts, kept after initialization.
	var sidecarRow podRow
	initializing := false
initLoop:
	for i, c := range pod.Status.InitContainerStatuses {
		row.restarts += c.RestartCount
		noteTermination(&row, c)
		if sidecars[c.Name] {
			sidecarRow.restarts += c.RestartCount
			noteTermination(&sidecarRow, c)
		}
		switch {
		case c.State.Terminated != nil && c.State.Terminated.ExitCode == 0:
			continue
		case sidecars[c.Name] && c.Started != nil && *c.Started:
			if c.Ready {
				row.ready++
			}
			continue
		case c.State.Terminated != nil:
			if c.State.Terminated.Reason == "" {
				if c.State.Terminated.Signal != 0 {
					reason = fmt.Sprintf("Init:Signal:%d", c.State.Terminated.Signal)
				} else {
					reason = fmt.Sprintf("Init:ExitCode:%d", c.State.Terminated.ExitCode)
				}
			} else {
				reason = "Init:" + c.State.Terminated.Reason
			}
			initializing = true
		case c.State.Waiting != nil && c.State.Waiting.Reason != "" && c.State.Waiting.Reason != "PodInitializing":
			reason = "Init:" + c.State.Waiting.Reason
			initializing = true
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(pod.Spec.InitContainers))
			initializing = true
		}
		break initLoop
	}
	if !initializing || podInitialized(pod) {
		row.restarts, row.lastRestart = sidecarRow.restarts, sidecarRow.lastRestart
		hasRunning := false
		for i := len(pod.Status.ContainerStatuses) - 1; i >= 0; i-- {
			c := pod.Status.ContainerStatuses[i]
			row.restarts += c.RestartCount
			noteTermination(&row, c)
			switch {
			case c.State.Waiting != nil && c.State.Waiting.Reason != "":
				reason = c.State.Waiting.Reason
			case c.State.Terminated != nil && c.State.Terminated.Reason != "":
				reason = c.State.Terminated.Reason
			case c.State.Terminated != nil && c.State.Terminated.Signal != 0:
				reason = fmt.Sprintf("Signal:%d", c.State.Terminated.Signal)
			case c.State.Terminated != nil:
				reason = fmt.Sprintf("ExitCode:%d", c.State.Terminated.ExitCode)
			case c.Ready && c.State.Running != nil:
				hasRunning = true
				row.ready++
			}
		}
		if reason == "Completed" && hasRunning {
			reason = "NotReady"
			if podReadyTrue(pod) {
				reason = "Running"
			}
		}
	}
	switch {
	case pod.DeletionTimestamp != nil && pod.Status.Reason == nodeUnreachableReason:
		reason = "Unknown"
	case pod.DeletionTimestamp != nil && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed:
		reason = "Terminating"
	}
	row.status = reason
	return row
}

func noteTermination(row *podRow, c corev1.ContainerStatus) {
	if t := c.LastTerminationState.Terminated; t != nil && row.lastRestart.Before(&t.FinishedAt) {
		row.lastRestart = t.FinishedAt
	}
}

func podInitialized(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodInitialized && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

func podReadyTrue(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}
