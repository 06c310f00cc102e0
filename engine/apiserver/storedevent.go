package apiserver

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// storedEvent is an Event as the server keeps it. A run creates an Event
// for nearly every pod created or deleted, and a corev1.Event is a
// 600-byte struct of which an event recorder sets a dozen fields: those
// fields are kept here, in about a third of the size, and the Event is
// built again when read. The UID is kept as its 128 bits and the
// resourceVersion as a number, the involved object (all but its
// resourceVersion) is shared with one of the Events stored just before
// when it is the same (a rollout's events alternate between its two
// ReplicaSets), and the first and last timestamps are kept only when they differ
// from the creation time. An Event that sets any other field (compactable
// is false) is kept whole in full. Either way the Event read back is equal
// to the one stored, field for field. Stored events never change.
type storedEvent struct {
	// full is the whole Event when it does not fit the fields below; the
	// fields below are then unset.
	full *corev1.Event

	name, namespace string
	// uid is the UID's bits (formatUID renders it); rv the
	// resourceVersion.
	uid     [2]uint64
	rv      uint64
	created metav1.Time
	// involved is involvedObject without its resourceVersion, which is
	// involvedRV; events about one object share it.
	involved        *corev1.ObjectReference
	involvedRV      string
	reason, message string
	eventType       string
	// component is source.component; reporter is reportingController.
	component, reporter string
	// times holds firstTimestamp and lastTimestamp when either differs
	// from created; nil when both equal it.
	times *[2]metav1.Time
	count int32
}

// key returns the event's namespace and name.
func (e *storedEvent) key() eventKey {
	if e.full != nil {
		return eventKey{e.full.Namespace, e.full.Name}
	}
	return eventKey{e.namespace, e.name}
}

// involvedLookback is how many of the events stored last storeEvent
// looks through for an involved object to share.
const involvedLookback = 8

// storeEvent returns e as stored: e carries the UID uid and the
// resourceVersion rv the server gave it. recent are events stored before
// (the server passes its last involvedLookback, latest first; nil entries
// are skipped), whose involved object e's shares when equal. e itself is
// not kept: the strings it shares are immutable, and full is a copy.
func storeEvent(e *corev1.Event, uid [2]uint64, rv uint64, recent ...*storedEvent) storedEvent {
	if !compactable(e) {
		return storedEvent{full: e.DeepCopy()}
	}
	se := storedEvent{
		name: e.Name, namespace: e.Namespace, uid: uid, rv: rv, created: e.CreationTimestamp,
		involvedRV: e.InvolvedObject.ResourceVersion, reason: e.Reason, message: e.Message, eventType: e.Type,
		component: e.Source.Component, reporter: e.ReportingController, count: e.Count,
	}
	ref := e.InvolvedObject
	ref.ResourceVersion = ""
	for _, prev := range recent {
		if prev != nil && prev.involved != nil && *prev.involved == ref {
			se.involved = prev.involved
			break
		}
	}
	if se.involved == nil {
		// A new copy, so that ref itself stays on the stack when shared.
		se.involved = new(corev1.ObjectReference)
		*se.involved = ref
	}
	se.times = eventTimes(e.FirstTimestamp, e.LastTimestamp, e.CreationTimestamp)
	return se
}

// eventTimes is storedEvent.times for an Event first and last seen at
// first and last and created at created: nil when both equal created.
func eventTimes(first, last, created metav1.Time) *[2]metav1.Time {
	if sameTime(first, created) && sameTime(last, created) {
		return nil
	}
	return &[2]metav1.Time{first, last}
}

// sameTime reports whether a and b are the same time.Time value, location
// included (Equal alone would take 12:00 UTC for 13:00 CET).
func sameTime(a, b metav1.Time) bool { return a.Time == b.Time }

// event returns the stored Event: a new object, which the caller may keep.
func (se *storedEvent) event() *corev1.Event {
	if se.full != nil {
		return se.full.DeepCopy()
	}
	e := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name: se.name, Namespace: se.namespace, UID: formatUID(se.uid[0], se.uid[1]), ResourceVersion: formatRV(se.rv),
			CreationTimestamp: se.created,
		},
		InvolvedObject:      *se.involved,
		Reason:              se.reason,
		Message:             se.message,
		Type:                se.eventType,
		Source:              corev1.EventSource{Component: se.component},
		ReportingController: se.reporter,
		FirstTimestamp:      se.created,
		LastTimestamp:       se.created,
		Count:               se.count,
	}
	e.InvolvedObject.ResourceVersion = se.involvedRV
	if se.times != nil {
		e.FirstTimestamp, e.LastTimestamp = se.times[0], se.times[1]
	}
	return e
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
