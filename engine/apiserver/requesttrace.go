package apiserver

import "github.com/rolloutlab/rolloutlab/engine/trace"

// requestCodec writes Request records compactly (see trace.Codec): the
// API server emits the most records of any component.
var requestCodec = trace.NewCodec(func(d *trace.Decoder) trace.Payload {
	return Request{Actor: d.String(), Verb: d.String(), Resource: d.String(), Namespace: d.String(),
		Name: d.String(), RV: d.Uint(), Code: int32(d.Int()), Error: d.String()}
})

// emit records r from source, in requestCodec's field order.
func (r *Request) emit(rec *trace.Recorder, source string) {
	e := rec.Begin(source, requestCodec)
	e.String(r.Actor)
	e.String(r.Verb)
	e.String(r.Resource)
	e.String(r.Namespace)
	e.String(r.Name)
	e.Uint(r.RV)
	e.Int(int64(r.Code))
	e.String(r.Error)
	e.End()
}
