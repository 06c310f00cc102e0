package informer

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// deliveryCodec writes WatchDelivery records compactly (see trace.Codec):
// every watch event applied to every informer is one.
var deliveryCodec = trace.NewCodec(func(d *trace.Decoder) trace.Payload {
	return WatchDelivery{Resource: d.String(), Type: d.String(), Key: d.String(), RV: d.Uint(), Lag: time.Duration(d.Int()),
		Tombstone: d.Bool(), Handlers: d.Strings()}
})

// emit records w from source, in deliveryCodec's field order.
func (w *WatchDelivery) emit(rec *trace.Recorder, source string) {
	e := rec.Begin(source, deliveryCodec)
	e.String(w.Resource)
	e.String(w.Type)
	e.String(w.Key)
	e.Uint(w.RV)
	e.Int(int64(w.Lag))
	e.Bool(w.Tombstone)
	e.Strings(w.Handlers)
	e.End()
}
