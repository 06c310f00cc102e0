package informer

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// deliveryCodec writes WatchDelivery records compactly (see trace.Codec):
// every watch event applied to every informer is one.
var deliveryCodec = trace.NewCodec(trace.KindWatch, func(d *trace.Decoder) trace.Payload {
	var w WatchDelivery
	d.Strings(&w.Resource, &w.Type, &w.Key)
	w.Handlers = d.List()
	n := d.Ints(3)
	w.RV, w.Lag, w.Tombstone = uint64(n[0]), time.Duration(n[1]), n[2] != 0
	return w
})

// emit records w from source, in deliveryCodec's field order.
func (w *WatchDelivery) emit(rec *trace.Recorder, source string) {
	e := rec.Begin(source, deliveryCodec)
	e.String(w.Resource, w.Type, w.Key)
	e.List(w.Handlers)
	tombstone := int64(0)
	if w.Tombstone {
		tombstone = 1
	}
	e.Int(int64(w.RV), int64(w.Lag), tombstone)
	e.End()
}
