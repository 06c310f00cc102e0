package apiserver

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// storedEvent is an Event as the server keeps it. A run creates an Event
// for nearly every pod created or deleted, and a corev1.Event is a
// 600-byte struct of which an event recorder sets a dozen fields: those
// fields are kept here, about a third of the size, and the Event is built
// again when read. An Event that sets any other field (compactable is
// false) is kept whole in full. Either way the Event read back is equal to
// the one stored, field for field. Stored events never change.
type storedEvent struct {
	// full is the whole Event when it does not fit the fields below; the
	// fields below are then unset.
	full *corev1.Event

	name, namespace string
	uid             types.UID
	rv              string
	created         metav1.Time
	involved        corev1.ObjectReference
	reason, message string
	eventType       string
	// component is source.component; reporter is reportingController.
	component, reporter string
	first, last         metav1.Time
	count               int32
}

// storeEvent returns e as stored. e itself is not kept: the strings it
// shares are immutable, and full is a copy.
func storeEvent(e *corev1.Event) storedEvent {
	if !compactable(e) {
		return storedEvent{full: e.DeepCopy()}
	}
	return storedEvent{
		name: e.Name, namespace: e.Namespace, uid: e.UID, rv: e.ResourceVersion, created: e.CreationTimestamp,
		involved: e.InvolvedObject, reason: e.Reason, message: e.Message, eventType: e.Type,
		component: e.Source.Component, reporter: e.ReportingController,
		first: e.FirstTimestamp, last: e.LastTimestamp, count: e.Count,
	}
}

// event returns the stored Event: a new object, which the caller may keep.
func (se *storedEvent) event() *corev1.Event {
	if se.full != nil {
		return se.full.DeepCopy()
	}
	return &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name: se.name, Namespace: se.namespace, UID: se.uid, ResourceVersion: se.rv, CreationTimestamp: se.created,
		},
		InvolvedObject:      se.involved,
		Reason:              se.reason,
		Message:             se.message,
		Type:                se.eventType,
		Source:              corev1.EventSource{Component: se.component},
		ReportingController: se.reporter,
		FirstTimestamp:      se.first,
		LastTimestamp:       se.last,
		Count:               se.count,
	}
}

// namespaceOf returns the stored Event's namespace without building it.
func (se *storedEvent) namespaceOf() string {
	if se.full != nil {
		return se.full.Namespace
	}
	return se.namespace
}

// compactable reports whether e sets no field outside those storedEvent
// keeps (TestStoredEventCoversEveryEventField lists them, so that a new
// field of corev1.Event in an upgrade is noticed).
func compactable(e *corev1.Event) bool {
	m := &e.ObjectMeta
	return e.TypeMeta == metav1.TypeMeta{} &&
		m.GenerateName == "" && m.SelfLink == "" && m.Generation == 0 &&
		m.DeletionTimestamp == nil && m.DeletionGracePeriodSeconds == nil &&
		m.Labels == nil && m.Annotations == nil && m.OwnerReferences == nil &&
		m.Finalizers == nil && m.ManagedFields == nil &&
		e.Source.Host == "" && e.EventTime.IsZero() && e.Series == nil &&
		e.Action == "" && e.Related == nil && e.ReportingInstance == ""
}
