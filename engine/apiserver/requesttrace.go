package apiserver

import "github.com/rolloutlab/rolloutlab/engine/trace"

// requestCodec writes Request records compactly (see trace.Codec): the
// API server emits the most records of any component.
var requestCodec = trace.NewCodec(trace.KindAPI, func(d *trace.Decoder) trace.Payload {
	var r Request
	d.Strings(&r.Actor, &r.Verb, &r.Resource, &r.Namespace, &r.Name, &r.Error)
	n := d.Ints(2)
	r.RV, r.Code = uint64(n[0]), int32(n[1])
	return r
})

// emit records r from source, in requestCodec's field order.
func (r *Request) emit(rec *trace.Recorder, source string) {
	e := rec.Begin(source, requestCodec)
	e.String(r.Actor, r.Verb, r.Resource, r.Namespace, r.Name, r.Error)
	e.Int(int64(r.RV), int64(r.Code))
	e.End()
}
