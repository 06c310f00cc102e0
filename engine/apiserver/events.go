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
// client-go's recorder names them.
func (s *Server) CreateEvent(actor string, e *corev1.Event) (*corev1.Event, error) {
	// The common Event (compactable) holds no map, slice or pointer: a
	// shallow copy is a deep one.
	var obj *corev1.Event
	if compactable(e) {
		c := *e
		obj = &c
	} else {
		obj = e.DeepCopy()
	}
	obj.Namespace = s.namespaceOf(Events, obj)
	var err error
	switch {
	case obj.ResourceVersion != "":
		err = apierrors.NewInternalError(errResourceVersionSet)
	case obj.Name == "" && obj.GenerateName != "":
		obj.Name = s.generateName(obj.GenerateName)
	case obj.Name == "":
		obj.Name = obj.InvolvedObject.Name + "." + strconv.FormatInt(s.clock.Now().UnixNano(), 16)
	}
	key := objectKey(obj.Namespace, obj.Name)
	if _, dup := s.eventKeys[key]; dup && err == nil {
		err = apierrors.NewAlreadyExists(Events.GroupResource(), obj.Name)
	}
	if err != nil {
		s.record(actor, "create", Events, "", obj.Namespace, obj.Name, nil, 0, err)
		return nil, err
	}
	obj.UID = s.newUID()
	obj.CreationTimestamp = metav1.NewTime(s.clock.Now())
	obj.ResourceVersion = formatRV(s.nextRV())
	s.eventKeys[key] = len(s.events)
	s.events = append(s.events, storeEvent(obj))
	s.record(actor, "create", Events, "", obj.Namespace, obj.Name, obj, 201, nil)
	return obj, nil
}

// ListEvents returns the events of ns ("" = all) in creation order, as
// new objects.
func (s *Server) ListEvents(ns string) []*corev1.Event {
	var out []*corev1.Event
	for i := range s.events {
		if e := &s.events[i]; ns == "" || e.namespaceOf() == ns {
			out = append(out, e.event())
		}
	}
	return out
}

// EventCount returns the number of stored events.
func (s *Server) EventCount() int { return len(s.events) }
