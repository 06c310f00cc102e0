package workqueue

import (
	"strconv"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// freshRecorderEvery bounds the records a benchmark keeps alive.
const freshRecorderEvery = 1 << 14

func benchKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "default/web-" + strconv.Itoa(i)
	}
	return keys
}

// BenchmarkAddGetDone measures one worker cycle (Add, Get, Done), traced and
// untraced; ops/s counts cycles per second.
func BenchmarkAddGetDone(b *testing.B) {
	for _, traced := range []bool{true, false} {
		name := "untraced"
		if traced {
			name = "traced"
		}
		b.Run(name, func(b *testing.B) {
			c := clock.New(clock.Epoch)
			var rec *trace.Recorder
			if traced {
				rec = trace.NewRecorder(c, 1)
			}
			q := New("replicaset", c, rec, "replicaset-controller", nil)
			keys := benchKeys(1024)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if traced && i%freshRecorderEvery == 0 {
					q.rec = trace.NewRecorder(c, 1)
				}
				k := keys[i%len(keys)]
				q.Add(k, "pod event")
				q.Add(k, "pod event") // deduped
				got, _, _ := q.Get()
				q.Done(got)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}

// BenchmarkAddAfterPromote measures AddAfter of 64 keys with spread delays,
// then advancing the clock past them and promoting all; ops/s counts keys
// scheduled and promoted per second.
func BenchmarkAddAfterPromote(b *testing.B) {
	c := clock.New(clock.Epoch)
	q := New("replicaset", c, trace.NewRecorder(c, 1), "replicaset-controller", nil)
	keys := benchKeys(64)
	b.ReportAllocs()
	b.ResetTimer()
	ops := 0
	for i := 0; i < b.N; i += len(keys) {
		if i%freshRecorderEvery < len(keys) {
			q.rec = trace.NewRecorder(c, 1)
		}
		for j, k := range keys {
			q.AddAfter(k, "retry", time.Duration(1+(j*7)%len(keys))*time.Millisecond)
		}
		c.Advance(time.Duration(len(keys)+1) * time.Millisecond)
		ops += q.PromoteDue()
		for {
			k, _, ok := q.Get()
			if !ok {
				break
			}
			q.Done(k)
		}
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "ops/s")
}
