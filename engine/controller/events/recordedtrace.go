package events

import "github.com/rolloutlab/rolloutlab/engine/trace"

// recordedCodec writes EventRecorded records compactly (see trace.Codec):
// a controller records an Event for every pod it creates or deletes.
var recordedCodec = trace.NewCodec(func(d *trace.Decoder) trace.Payload {
	return EventRecorded{Object: d.String(), Type: d.String(), Reason: d.String(), Message: d.UniqueString(),
		Error: d.String()}
})

// emit records e from source, in recordedCodec's field order.
func (ev *EventRecorded) emit(rec *trace.Recorder, source string) {
	e := rec.Begin(source, recordedCodec)
	e.String(ev.Object)
	e.String(ev.Type)
	e.String(ev.Reason)
	e.UniqueString(ev.Message)
	e.String(ev.Error)
	e.End()
}
