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
		if e := s.eventAt(i); ns == "" || e.key().ns == ns {
			out = append(out, e.event())
		}
	}
	return out
}

// eventAt returns the current version of event i: the version stored,
// or the last patch's.
func (s *Server) eventAt(i int) *storedEvent {
	if p, ok := s.eventPatches[i]; ok {
		return p
	}
	return s.events.at(i)
}

// PatchEvent is an event recorder's patch of an Event it stored before
// (client-go's correlator counting a repeated Event, or one more Event
// combined into an aggregate): it sets count, lastTimestamp and message,
// and nothing else, as the strategic merge patch the correlator sends
// does, and the Event takes a new resourceVersion. An Event not found
// (never stored, or in another namespace; "" is default) is NotFound, and
// the recorder then creates it.
func (s *Server) PatchEvent(actor, ns, name string, count int32, last metav1.Time, message string) error {
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	i, ok := s.eventKeys.find(&s.events, eventKey{ns, name})
	if !ok {
		err := apierrors.NewNotFound(Events.GroupResource(), name)
		s.recordRV(actor, "patch", Events, "", ns, name, 0, 0, err)
		return err
	}
	rv := s.nextRV()
	next := *s.eventAt(i)
	if next.full != nil {
		e := next.full.DeepCopy()
		e.Count, e.LastTimestamp, e.Message, e.ResourceVersion = count, last, message, formatRV(rv)
		next.full = e
	} else {
		first := next.created
		if next.times != nil {
			first = next.times[0]
		}
		next.count, next.message, next.rv = count, message, rv
		next.times = eventTimes(first, last, next.created)
	}
	if s.eventPatches == nil {
		s.eventPatches = map[int]*storedEvent{}
	}
	s.eventPatches[i] = &next
	s.recordRV(actor, "patch", Events, "", ns, name, rv, 200, nil)
	return nil
}

// EventCount returns the number of stored events.
func (s *Server) EventCount() int { return s.events.len() }
