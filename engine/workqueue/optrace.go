package workqueue

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// opCodec writes QueueOp records compactly (see trace.Codec): every
// controller's queue records each add, get and done.
var opCodec = trace.NewCodec(func(d *trace.Decoder) trace.Payload {
	return QueueOp{Queue: d.String(), Op: Op(d.Uint()), Key: d.String(), Reason: d.String(), Reasons: d.Strings(),
		Added: AddOutcome(d.Uint()), Delay: time.Duration(d.Int()), Waited: WaitOutcome(d.Uint()), ReadyAt: time.Duration(d.Int()),
		DroppedReadyAt: time.Duration(d.Int()), Requeues: int(d.Int()), Limiter: d.String(), Len: int(d.Int())}
})

// emit records p from source, in opCodec's field order.
func (p *QueueOp) emit(rec *trace.Recorder, source string) {
	e := rec.Begin(source, opCodec)
	e.String(p.Queue)
	e.Uint(uint64(p.Op))
	e.String(p.Key)
	e.String(p.Reason)
	e.Strings(p.Reasons)
	e.Uint(uint64(p.Added))
	e.Int(int64(p.Delay))
	e.Uint(uint64(p.Waited))
	e.Int(int64(p.ReadyAt))
	e.Int(int64(p.DroppedReadyAt))
	e.Int(int64(p.Requeues))
	e.String(p.Limiter)
	e.Int(int64(p.Len))
	e.End()
}
