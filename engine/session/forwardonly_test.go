package session

import (
	"errors"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/sim"
)

func TestForwardOnlyKeepsNoPastAndObservesEveryStep(t *testing.T) {
	full := load(t, "adoption")
	full.RunToEnd()

	s := load(t, "adoption")
	s.SetForwardOnly()
	var seen []sim.StepInfo
	s.SetStepObserver(func(info sim.StepInfo) { seen = append(seen, info) })
	last := s.RunToEnd()

	if len(last) != 1 || last[0] != full.History()[full.Step()-1] {
		t.Errorf("RunToEnd returned %v, want only the last step", last)
	}
	if s.Step() != full.Step() || len(seen) != full.Step() {
		t.Fatalf("forward-only run: step %d, %d observed; want %d", s.Step(), len(seen), full.Step())
	}
	for i, info := range seen {
		if info != full.History()[i] {
			t.Fatalf("step %d observed as %+v, want %+v", i+1, info, full.History()[i])
		}
	}
	if got, want := s.Sim().Recorder().Text(), full.Sim().Recorder().Text(); got != want {
		t.Error("forward-only trace differs from the normal run's")
	}
	if len(s.History()) != 0 || len(s.Samples()) != 1 {
		t.Errorf("kept %d steps and %d samples, want 0 and the set-up sample", len(s.History()), len(s.Samples()))
	}
	if st := s.CheckpointStats(); st.Count != 1 || st.Steps[0] != 0 {
		t.Errorf("checkpoints %+v, want only step 0", st)
	}
	if err := s.Seek(1); !errors.Is(err, ErrForwardOnly) {
		t.Errorf("Seek back = %v, want ErrForwardOnly", err)
	}
}
