package replicaset

import "testing"

// BenchmarkScaleUp1000 measures the sync loop that brings a new ReplicaSet
// from 0 to 1,000 pods (two bursts of 500) with every watch event
// delivered and no kubelet: creates, Events, status writes and the handler
// work of 1,000 pod adds.
func BenchmarkScaleUp1000(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := newEnv(b, DefaultConfig())
		e.createRS("web", 1000, 0)
		b.StartTimer()
		e.settle()
		b.StopTimer()
		if n := len(e.srv.ListPods("default", nil)); n != 1000 {
			b.Fatalf("%d pods, want 1000", n)
		}
		b.StartTimer()
	}
}
