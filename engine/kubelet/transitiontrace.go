package kubelet

import "github.com/rolloutlab/rolloutlab/engine/trace"

// transitionCodec writes Transition records compactly (see trace.Codec):
// every pod's scheduling and lifecycle changes are ones.
var transitionCodec = trace.NewCodec(trace.KindKubelet, func(d *trace.Decoder) trace.Payload {
	var t Transition
	d.Strings(&t.Actor, &t.Pod, &t.Node, &t.Image, &t.What, &t.Detail)
	return t
})

// emit records t from source, in transitionCodec's field order.
func (t *Transition) emit(rec *trace.Recorder, source string) {
	e := rec.Begin(source, transitionCodec)
	e.String(t.Actor, t.Pod, t.Node, t.Image, t.What, t.Detail)
	e.End()
}
