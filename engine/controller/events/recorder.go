package events

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Recorder creates Events on behalf of one controller.
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
	return &Recorder{server: server, clock: c, rec: rec, component: component}
}

// Event creates an Event about obj, whose kind is gvk, and records it.
func (r *Recorder) Event(obj metav1.Object, gvk schema.GroupVersionKind, eventType, reason, message string) {
	now := r.clock.Now()
	nanos := max(now.UnixNano(), r.lastNanos+1)
	r.lastNanos = nanos
	ts := metav1.NewTime(now)
	ev := corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Namespace: obj.GetNamespace(), Name: obj.GetName() + "." + strconv.FormatInt(nanos, 16)},
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
	var failed string
	if err := r.server.PostEvent(r.component, &ev); err != nil {
		failed = err.Error()
	}
	emitRecorded(r.rec, r.component, gvk.Kind, obj, eventType, reason, message, failed)
}

// EventRecorded mirrors a Kubernetes Event a controller created.
type EventRecorded struct {
	// Object is "<Kind> ns/name".
	Object string `json:"object"`
	// Type is Normal or Warning.
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	// Error is set when the API server refused the Event.
	Error string `json:"error,omitempty"`
}

var _ trace.Payload = EventRecorded{}

// Kind implements trace.Payload.
func (EventRecorded) Kind() trace.Kind { return trace.KindEvent }

// Text implements trace.Payload, e.g.
// "Normal ScalingReplicaSet Deployment default/web: Scaled up replica set web-7866ccff64 from 0 to 3".
func (e EventRecorded) Text() string {
	t := e.Type + " " + e.Reason + " " + e.Object + ": " + e.Message
	if e.Error != "" {
		t += " (not stored: " + e.Error + ")"
	}
	return t
}
