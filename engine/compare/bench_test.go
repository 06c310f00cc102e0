package compare

import (
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// BenchmarkForkMaxSurge times what the page's "What if, instead?" does on
// the library's compare-max-surge: fork at step 100 (two replays of 100
// steps) with maxSurge 100% and play both runs to their end (~500 steps
// each).
func BenchmarkForkMaxSurge(b *testing.B) {
	src, _ := scenarios.Source("compare-max-surge")
	s, err := session.Load("compare-max-surge.yaml", src, nil)
	if err != nil {
		b.Fatal(err)
	}
	s.Advance(session.ByEvent, 100)
	alt, err := s.ParseUserAction([]byte(`{"type":"setRollingUpdate","target":"deployment/web","maxSurge":"100%"}`))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := Fork(s, 100, "", []scenario.Action{alt}, Keep{}); err != nil {
			b.Fatal(err)
		}
	}
}
