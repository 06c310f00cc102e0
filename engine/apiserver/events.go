package apiserver

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CreateEvent stores an Event. Events take a resourceVersion like any
// object but are not put in the watch log. An event without name or
// generateName is named "<involvedObject.name>.<hex unix nanos>", the way
// client-go's recorder names them. It returns the stored Event (a copy).
func (s *Server) CreateEvent(actor string, e *corev1.Event) (*corev1.Event, error) {
	se, err := s.storeNewEvent(actor, e)
	if err != nil {
		return nil, err
	}
	return se.event(), nil
}

// PostEvent is CreateEvent for a caller that does not read the stored Event
// back (an event recorder): the same request, trace record and stored
// Event, without building the Event CreateEvent returns. e is not kept.
func (s *Server) PostEvent(actor string, e *corev1.Event) error {
	_, err := s.storeNewEvent(actor, e)
	return err
}

// storeNewEvent is CreateEvent's work; it returns the stored event.
func (s *Server) storeNewEvent(actor string, e *corev1.Event) (*storedEvent, error) {
	// The common Event (compactable) holds no map, slice or pointer: a
	// copy of the struct is a deep copy, and it stays on the stack.
	obj := *e
	if !compactable(e) {
		e.DeepCopyInto(&obj)
	}
	if obj.Namespace == "" {
		obj.Namespace = metav1.NamespaceDefault
	}
	var err error
	switch {
	case obj.ResourceVersion != "":
		err = apierrors.NewInternalError(errResourceVersionSet)
	case obj.Name == "" && obj.GenerateName != "":
		obj.Name = s.generateName(obj.GenerateName)
	case obj.Name == "":
		obj.Name = obj.InvolvedObject.Name + "." + strconv.FormatInt(s.clock.Now().UnixNano(), 16)
	}
	key := eventKey{obj.Namespace, obj.Name}
	if err == nil && !s.eventKeys.claim(&s.events, key) {
		err = apierrors.NewAlreadyExists(Events.GroupResource(), obj.Name)
	}
	if err != nil {
		s.recordRV(actor, "create", Events, "", obj.Namespace, obj.Name, 0, 0, err)
		return nil, err
	}
	hi, lo := s.drawUID()
	obj.CreationTimestamp = metav1.NewTime(s.clock.Now())
	rv := s.nextRV()
	if !compactable(&obj) {
		// Kept whole: the strings are needed now. A compact event builds
		// them when it is read.
		obj.UID, obj.ResourceVersion = formatUID(hi, lo), formatRV(rv)
	}
	var recent [involvedLookback]*storedEvent
	n := s.events.len()
	for i := range min(n, involvedLookback) {
		recent[i] = s.events.at(n - 1 - i)
	}
	s.events.add(storeEvent(&obj, [2]uint64{hi, lo}, rv, recent[:]...))
	s.recordRV(actor, "create", Events, "", obj.Namespace, obj.Name, rv, 201, nil)
	return s.events.at(s.events.len() - 1), nil
}

// ListEvents returns the events of ns ("" = all) in creation order, as
// new objects.
func (s *Server) ListEvents(ns string) []*corev1.Event {
	var out []*corev1.Event
	for i := range s.events.len() {
		if e := s.events.at(i); ns == "" || e.key().ns == ns {
			out = append(out, e.event())
		}
	}
	return out
}

// EventCount returns the number of stored events.
func (s *Server) EventCount() int { return s.events.len() }
