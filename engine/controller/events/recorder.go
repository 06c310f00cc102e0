package events

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Recorder creates Events on behalf of one controller, through the
// correlator client-go's event broadcaster applies (see correlator).
type Recorder struct {
	server *apiserver.Server
	clock  *clock.Clock
	rec    *trace.Recorder
	// component is the event source, the API actor and the trace source,
	// e.g. "replicaset-controller".
	component string
	// lastNanos is the name suffix of the last Event created. client-go
	// names an Event "<object>.<hex unix nanos>"; several Events at one
	// virtual instant would collide, so each takes max(now, last+1).
	lastNanos int64
	// corr is the correlator's state. Snapshot: yes (a copy of its three
	// caches: at most 3 x 4,096 entries, in practice a few dozen per
	// object that had Events, as Events are combined from the 10th and
	// the spam filter stops the writes after 25).
	corr *correlator
}

// apiVersion returns gvk's group/version as an involvedObject names it,
// without building the string for the kinds Events are usually about.
func apiVersion(gvk schema.GroupVersionKind) string {
	if gvk.Group == "apps" && gvk.Version == "v1" {
		return "apps/v1"
	}
	return gvk.GroupVersion().String()
}

// New returns a recorder for component.
func New(server *apiserver.Server, c *clock.Clock, rec *trace.Recorder, component string) *Recorder {
	return &Recorder{server: server, clock: c, rec: rec, component: component, corr: newCorrelator()}
}

// nextNanos returns the suffix of a new Event name: now, in Unix
// nanoseconds, or one more than the last one given.
func (r *Recorder) nextNanos() int64 {
	r.lastNanos = max(r.clock.Now().UnixNano(), r.lastNanos+1)
	return r.lastNanos
}

// Event records an Event about obj, whose kind is gvk: the correlator
// decides whether it is created, counted into an Event stored before,
// combined with similar ones or dropped, and the trace says which.
func (r *Recorder) Event(obj metav1.Object, gvk schema.GroupVersionKind, eventType, reason, message string) {
	now := r.clock.Now()
	ts := metav1.NewTime(now)
	ev := corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Namespace: obj.GetNamespace()}, // named by correlate
		InvolvedObject: corev1.ObjectReference{
			APIVersion: apiVersion(gvk), Kind: gvk.Kind, Namespace: obj.GetNamespace(), Name: obj.GetName(),
			UID: obj.GetUID(), ResourceVersion: obj.GetResourceVersion(),
		},
		Reason:              reason,
		Message:             message,
		Type:                eventType,
		Source:              corev1.EventSource{Component: r.component},
		ReportingController: r.component,
		FirstTimestamp:      ts,
		LastTimestamp:       ts,
		Count:               1,
	}
	out := r.corr.correlate(&ev, now, r.nextNanos)
	rec := EventRecorded{Type: eventType, Reason: reason, Message: message}
	switch {
	case out.dropped:
		rec.Written = howDropped
	case out.combined:
		rec.Written, rec.Into, rec.Count = howCombined, out.event.Name, out.event.Count
	case out.patch():
		rec.Written, rec.Into, rec.Count = howCounted, out.event.Name, out.event.Count
	}
	if !out.dropped {
		created, err := r.write(&out)
		rec.Created = created
		if err != nil {
			rec.Error = err.Error()
		} else {
			r.corr.written(&out.event)
		}
	}
	emitRecorded(r.rec, r.component, gvk.Kind, obj, &rec)
}

// write stores the correlated Event: a patch of the stored one when it
// counts one more, and a create otherwise or when there is no stored one
// to patch, as client-go's recordToSink does. It reports whether a patch
// fell back to a create: the first of the Events it counts was dropped by
// the spam filter (the correlator counts an Event before the filter sees
// it), so there was none stored.
func (r *Recorder) write(out *correlated) (fellBack bool, err error) {
	e := &out.event
	if out.patch() {
		err := r.server.PatchEvent(r.component, e.Namespace, e.Name, e.Count, e.LastTimestamp, e.Message)
		if !apierrors.IsNotFound(err) {
			return false, err
		}
		fellBack = true
	}
	return fellBack, r.server.PostEvent(r.component, e)
}

// How an Event reached the API server (EventRecorded.Written; "" is
// created as recorded).
const (
	howCombined = "combined"
	howCounted  = "counted"
	howDropped  = "spam-filtered"
)

// EventRecorded mirrors a Kubernetes Event a controller recorded, and says
// what the correlator made of it.
type EventRecorded struct {
	// Object is "<Kind> ns/name".
	Object string `json:"object"`
	// Type is Normal or Warning.
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	// Error is set when the API server refused the Event.
	Error string `json:"error,omitempty"`
	// Written says how the correlator passed it on: "" (created as
	// recorded), "combined" (as or into an Event standing for similar
	// ones), "counted" (a patch counting one more of an equal Event
	// stored before) or "spam-filtered" (dropped).
	Written string `json:"written,omitempty"`
	// Into names the Event created or patched, and Count is its count
	// (unset for an Event created as recorded, or dropped).
	Into  string `json:"into,omitempty"`
	Count int32  `json:"count,omitempty"`
	// Created is set when a counted or combined Event had none stored to
	// patch (the one it counts was dropped by the spam filter), so it was
	// created, with its count.
	Created bool `json:"created,omitempty"`
}

var _ trace.Payload = EventRecorded{}

// Kind implements trace.Payload.
func (EventRecorded) Kind() trace.Kind { return trace.KindEvent }

// Text implements trace.Payload, e.g.
// "Normal ScalingReplicaSet Deployment default/web: Scaled up replica set web-7866ccff64 from 0 to 3".
func (e EventRecorded) Text() string {
	t := e.Type + " " + e.Reason + " " + e.Object + ": " + e.Message
	count := strconv.Itoa(int(e.Count))
	if e.Created {
		// The patch found nothing to count into.
		count += ", created: the Event it counts was not stored"
	}
	switch e.Written {
	case howCombined:
		if e.Count == 1 {
			t += " (similar events combined: new event " + e.Into + ")"
		} else {
			t += " (similar events combined: " + e.Into + " count " + count + ")"
		}
	case howCounted:
		t += " (repeated: " + e.Into + " count " + count + ")"
	case howDropped:
		t += " (not stored: spam filter, " + strconv.Itoa(spamBurst) + " events per object, then 1 per 5 min)"
	}
	if e.Error != "" {
		t += " (not stored: " + e.Error + ")"
	}
	return t
}
