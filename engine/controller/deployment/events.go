package deployment

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// recordEvent creates a Kubernetes Event about d through the API server, as
// client-go's recorder would, and mirrors it in the trace. Event failures are
// never returned to the sync (upstream's recorder is fire-and-forget).
func (dc *Controller) recordEvent(d *appsv1.Deployment, eventType, reason, message string) {
	now := metav1.NewTime(dc.clock.Now())
	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Namespace: d.Namespace},
		InvolvedObject: corev1.ObjectReference{
			APIVersion:      deploymentGVK.GroupVersion().String(),
			Kind:            deploymentGVK.Kind,
			Namespace:       d.Namespace,
			Name:            d.Name,
			UID:             d.UID,
			ResourceVersion: d.ResourceVersion,
		},
		Reason:              reason,
		Message:             message,
		Type:                eventType,
		Source:              corev1.EventSource{Component: source},
		ReportingController: source,
		FirstTimestamp:      now,
		LastTimestamp:       now,
		Count:               1,
	}
	// client-go names an event "<object>.<hex unix nanos>". Several events at
	// one virtual instant would collide, so each later one at the same
	// instant adds one nanosecond to the name.
	nanos := now.UnixNano()
	if nanos == dc.eventNanos {
		dc.eventBump++
	} else {
		dc.eventNanos, dc.eventBump = nanos, 0
	}
	ev.Name = d.Name + "." + strconv.FormatInt(nanos+dc.eventBump, 16)
	rec := EventRecorded{Object: "Deployment " + d.Namespace + "/" + d.Name, Type: eventType, Reason: reason, Message: message}
	if _, err := dc.server.CreateEvent(source, ev); err != nil {
		rec.Error = err.Error()
	}
	dc.emit(rec)
}

// eventf is recordEvent with a format.
func (dc *Controller) eventf(d *appsv1.Deployment, eventType, reason, format string, args ...any) {
	dc.recordEvent(d, eventType, reason, fmt.Sprintf(format, args...))
}
