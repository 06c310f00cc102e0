package events

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// recordedCodec writes EventRecorded records compactly (see trace.Codec):
// a controller records an Event for every pod it creates or deletes. The
// object is written as its kind, namespace and name, so that recording
// does not build the "<Kind> ns/name" string a reader sees.
var recordedCodec = trace.NewCodec(func(d *trace.Decoder) trace.Payload {
	kind, ns, name := d.String(), d.String(), d.String()
	return EventRecorded{Object: kind + " " + ns + "/" + name, Type: d.String(), Reason: d.String(), Message: d.String(),
		Error: d.String()}
})

// emitRecorded records the EventRecorded of an Event about obj, of kind
// kind, from source, in recordedCodec's field order.
func emitRecorded(rec *trace.Recorder, source, kind string, obj metav1.Object, eventType, reason, message, failed string) {
	e := rec.Begin(source, recordedCodec)
	e.String(kind)
	e.String(obj.GetNamespace())
	e.String(obj.GetName())
	e.String(eventType)
	e.String(reason)
	e.UniqueString(message)
	e.String(failed)
	e.End()
}
