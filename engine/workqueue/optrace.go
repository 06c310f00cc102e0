package workqueue

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// opCodec writes QueueOp records compactly (see trace.Codec): every
// controller's queue records each add, get and done.
var opCodec = trace.NewCodec(trace.KindQueue, func(d *trace.Decoder) trace.Payload {
	var p QueueOp
	var why Reason
	d.Strings(&p.Queue, &p.Key, &why.Prefix, &why.Subject, &why.Suffix, &p.Limiter)
	p.Reason = why.String()
	p.Reasons = d.List()
	n := d.Ints(8)
	p.Op, p.Added, p.Waited = Op(n[0]), AddOutcome(n[1]), WaitOutcome(n[2])
	p.Delay, p.ReadyAt, p.DroppedReadyAt = time.Duration(n[3]), time.Duration(n[4]), time.Duration(n[5])
	p.Requeues, p.Len = int(n[6]), int(n[7])
	return p
})

// emit records p from source, in opCodec's field order, with why's text
// as its Reason (p.Reason is not read): the parts are stored, so that the
// text is built only when the record is read.
func (p *QueueOp) emit(rec *trace.Recorder, source string, why Reason) {
	e := rec.Begin(source, opCodec)
	e.String(p.Queue, p.Key, why.Prefix, why.Subject, why.Suffix, p.Limiter)
	e.List(p.Reasons)
	e.Int(int64(p.Op), int64(p.Added), int64(p.Waited), int64(p.Delay), int64(p.ReadyAt), int64(p.DroppedReadyAt),
		int64(p.Requeues), int64(p.Len))
	e.End()
}
