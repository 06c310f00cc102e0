package session

import (
	"flag"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// TestMain makes every test of the package check that a replayed step's
// kept chart sample is the one it computes again (checkReplayedSamples),
// so each seek of the rewind, fork and restore tests also proves that
// replays need not compute samples. Likewise every version a replay
// shares with a later checkpoint instead of storing its own copy
// (apiserver.VerifyReplayedVersions) is compared with that copy.
// Benchmarks time the real cost and leave both off.
//
// Under js/wasm it also sets a soft memory limit of 1 GB. The collector
// there runs only when Go code allocates, so a heap can grow to several
// times what is live before a cycle ends; a test process once reached the
// 4 GB of wasm memory and died. Near the limit the collector works harder
// instead.
func TestMain(m *testing.M) {
	flag.Parse()
	checkReplayedSamples = flag.Lookup("test.bench").Value.String() == ""
	apiserver.VerifyReplayedVersions = checkReplayedSamples
	if runtime.GOOS == "js" {
		debug.SetMemoryLimit(1 << 30)
	}
	os.Exit(m.Run())
}

// A kept sample that differs from what the replayed step computes is
// caught: the check the other tests rely on can fail.
func TestReplayedSampleMismatchIsCaught(t *testing.T) {
	if !checkReplayedSamples {
		t.Skip("benchmark run")
	}
	s, err := Load("b.yaml", benchScenario(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.RunToEnd()
	end := s.Step()
	if end < 20 {
		t.Fatalf("%d steps: too short", end)
	}
	if err := s.Seek(end - 5); err != nil { // a replay with the samples intact
		t.Fatal(err)
	}
	s.samples[end-2].At++
	defer func() {
		p := recover()
		if msg, _ := p.(string); !strings.Contains(msg, "replayed step") {
			t.Fatalf("panic %v, want a replayed-sample mismatch", p)
		}
	}()
	_ = s.Seek(end)
	t.Fatal("the altered sample was not noticed")
}
