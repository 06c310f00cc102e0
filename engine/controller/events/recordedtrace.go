package events

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// recordedCodec writes EventRecorded records compactly (see trace.Codec):
// a controller records an Event for every pod it creates or deletes. The
// object is written as its kind, namespace and name, so that recording
// does not build the "<Kind> ns/name" string a reader sees.
var recordedCodec = trace.NewCodec(trace.KindEvent, func(d *trace.Decoder) trace.Payload {
	var kind, ns, name string
	var e EventRecorded
	d.Strings(&kind, &ns, &name, &e.Type, &e.Reason, &e.Error, &e.Written, &e.Into, &e.Message)
	// A negative count is a count with Created set (see emitRecorded).
	if n := d.Ints(1)[0]; n < 0 {
		e.Count, e.Created = int32(-n), true
	} else {
		e.Count = int32(n)
	}
	e.Object = kind + " " + ns + "/" + name
	return e
})

// emitRecorded records the EventRecorded of an Event about obj, of kind
// kind, from source, in recordedCodec's field order.
func emitRecorded(rec *trace.Recorder, source, kind string, obj metav1.Object, eventType, reason, message string, w written) {
	e := rec.Begin(source, recordedCodec)
	into := w.into
	if w.how == howCreated || w.how == howDropped {
		into = "" // the Event's own name, or none written: not shown
	}
	e.String(kind, obj.GetNamespace(), obj.GetName(), eventType, reason, w.failed, w.how, into)
	e.UniqueString(message)
	count := int64(w.count)
	if w.how == howCreated || w.how == howDropped {
		count = 0
	}
	if w.created {
		// A count is at least 1 when set: its sign carries Created, which
		// is rare, so that the common record takes no byte more.
		count = -count
	}
	e.Int(count)
	e.End()
}
