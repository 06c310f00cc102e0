package replicaset

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Event reasons, the only Events the controller records (BEHAVIOR §3.4).
const (
	// ReasonSuccessfulCreate (Normal): "Created pod: <pod>".
	ReasonSuccessfulCreate = "SuccessfulCreate"
	// ReasonFailedCreate (Warning): "Error creating: <err>"; not recorded
	// when the namespace is terminating.
	ReasonFailedCreate = "FailedCreate"
	// ReasonSuccessfulDelete (Normal): "Deleted pod: <pod>".
	ReasonSuccessfulDelete = "SuccessfulDelete"
	// ReasonFailedDelete (Warning): "Error deleting: <err>"; not recorded
	// for NotFound.
	ReasonFailedDelete = "FailedDelete"
)

// recordEvent writes an Event about rs through the API server and records
// it in the trace. A refused Event does not fail the sync.
func (rc *Controller) recordEvent(rs *appsv1.ReplicaSet, eventType, reason, message string) {
	now := rc.clock.Now()
	nanos := max(now.UnixNano(), rc.lastEventNanos+1)
	rc.lastEventNanos = nanos
	ts := metav1.NewTime(now)
	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Namespace: rs.Namespace, Name: rs.Name + "." + strconv.FormatInt(nanos, 16)},
		InvolvedObject: corev1.ObjectReference{
			Kind: "ReplicaSet", APIVersion: "apps/v1", Namespace: rs.Namespace, Name: rs.Name,
			UID: rs.UID, ResourceVersion: rs.ResourceVersion,
		},
		Reason:         reason,
		Message:        message,
		Type:           eventType,
		Source:         corev1.EventSource{Component: ControllerName},
		FirstTimestamp: ts,
		LastTimestamp:  ts,
		Count:          1,
	}
	rec := EventRecorded{Type: eventType, Reason: reason, Object: "ReplicaSet " + keyOf(rs.Namespace, rs.Name), Message: message}
	if _, err := rc.server.CreateEvent(ControllerName, ev); err != nil {
		rec.Error = err.Error()
	}
	rc.emit(rec)
}
