package workqueue

import "github.com/rolloutlab/rolloutlab/engine/trace"

// opCodec writes QueueOp records compactly (see trace.Codec): every
// controller's queue records each add, get and done.
var opCodec = trace.NewCodec(func(d *trace.Decoder) trace.Payload {
	return QueueOp{Queue: d.String(), Op: Op(d.Uint()), Key: d.String(), Reason: d.String(), Reasons: d.Strings(),
		Added: AddOutcome(d.Uint()), Delay: d.Duration(), Waited: WaitOutcome(d.Uint()), ReadyAt: d.Duration(),
		DroppedReadyAt: d.Duration(), Requeues: int(d.Int()), Limiter: d.String(), Len: int(d.Int())}
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
	e.Duration(p.Delay)
	e.Uint(uint64(p.Waited))
	e.Duration(p.ReadyAt)
	e.Duration(p.DroppedReadyAt)
	e.Int(int64(p.Requeues))
	e.String(p.Limiter)
	e.Int(int64(p.Len))
	e.End()
}
