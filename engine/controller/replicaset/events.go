package replicaset

import (
	appsv1 "k8s.io/api/apps/v1"
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

// recordEvent writes an Event about rs (fire-and-forget: a refused Event
// does not fail the sync).
func (rc *Controller) recordEvent(rs *appsv1.ReplicaSet, eventType, reason, message string) {
	rc.events.Event(rs, replicaSetGVK, eventType, reason, message)
}
