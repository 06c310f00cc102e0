package session

import (
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"testing"
	"time"
)

func TestZZProfileWorstSeek(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	s := loadBench(t, benchScenario(7800))
	play(s)
	runtime.GC()
	end := s.Step()
	gaps := seekGaps(s)
	slices.SortStableFunc(gaps, func(x, y seekGap) int { return y.records - x.records })
	f, _ := os.Create(os.Getenv("ZZPROF"))
	pprof.StartCPUProfile(f)
	var total time.Duration
	for i := 0; i < 60; i++ {
		g := gaps[0]
		if err := s.Seek(end); err != nil {
			t.Fatal(err)
		}
		s.dropScratch()
		t0 := time.Now()
		if err := s.Seek(g.last); err != nil {
			t.Fatal(err)
		}
		total += time.Since(t0)
	}
	pprof.StopCPUProfile()
	t.Logf("mean worst seek %v (gap %d recs, %d steps)", total/60, gaps[0].records, gaps[0].last-gaps[0].from)
}
