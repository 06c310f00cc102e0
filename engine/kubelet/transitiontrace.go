package kubelet

import "github.com/rolloutlab/rolloutlab/engine/trace"

// transitionCodec writes Transition records compactly (see trace.Codec):
// every pod's scheduling and lifecycle changes are ones.
var transitionCodec = trace.NewCodec(func(d *trace.Decoder) trace.Payload {
	return Transition{Actor: d.String(), Pod: d.String(), Node: d.String(), Image: d.String(), What: d.String(),
		Detail: d.String()}
})

// emit records t from source, in transitionCodec's field order.
func (t *Transition) emit(rec *trace.Recorder, source string) {
	e := rec.Begin(source, transitionCodec)
	e.String(t.Actor)
	e.String(t.Pod)
	e.String(t.Node)
	e.String(t.Image)
	e.String(t.What)
	e.String(t.Detail)
	e.End()
}
