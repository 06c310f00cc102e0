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

// emitRecorded records e, an Event about obj, of kind kind, from source,
// in recordedCodec's field order (e.Object is not read: the codec writes
// kind, namespace and name).
func emitRecorded(rec *trace.Recorder, source, kind string, obj metav1.Object, e *EventRecorded) {
	enc := rec.Begin(source, recordedCodec)
	enc.String(kind, obj.GetNamespace(), obj.GetName(), e.Type, e.Reason, e.Error, e.Written, e.Into)
	enc.UniqueString(e.Message)
	count := int64(e.Count)
	if e.Created {
		// A count is at least 1 when set: its sign carries Created, which
		// is rare, so that the common record takes no byte more.
		count = -count
	}
	enc.Int(count)
	enc.End()
}
