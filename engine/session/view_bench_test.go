package session

import (
	"os"
	"testing"
)

// BenchmarkStepAndView10k measures what a player frame costs in the middle
// of a 10,000-replica create-and-roll-out (scripts/bench/rollout-10k.yaml):
// one step, then the view with the page's pod cap. The view visits only
// the pods it shows.
func BenchmarkStepAndView10k(b *testing.B) {
	data, err := os.ReadFile("../../scripts/bench/rollout-10k.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s, err := Load("rollout-10k.yaml", data, nil)
	if err != nil {
		b.Fatal(err)
	}
	s.Advance(ByEvent, 30000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Advance(ByEvent, 1)
		if v := s.View(ViewOptions{MaxPods: 200}); len(v.Pods) != 200 || v.PodTotal < 10000 {
			b.Fatalf("view: %d pods of %d", len(v.Pods), v.PodTotal)
		}
	}
}
