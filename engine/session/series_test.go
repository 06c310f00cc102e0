package session

import (
	"slices"
	"testing"
)

// TestSamplesShareUnchangedPoints: consecutive samples with the same points
// share one slice, samples that differ do not, and every sample still holds
// what a fresh sample of its step would.
func TestSamplesShareUnchangedPoints(t *testing.T) {
	s := load(t, "rolling-update-10-3-2")
	s.RunToEnd()
	smps := s.Samples()
	shared, changed := 0, 0
	for i := 1; i < len(smps); i++ {
		a, b := smps[i-1].ReplicaSets, smps[i].ReplicaSets
		if !slices.Equal(a, b) {
			changed++
			continue
		}
		if len(a) > 0 && &a[0] != &b[0] {
			t.Fatalf("samples %d and %d hold equal points in two copies", i-1, i)
		}
		shared++
	}
	if shared == 0 || changed == 0 {
		t.Fatalf("shared %d, changed %d: the scenario should have both", shared, changed)
	}
	last := smps[len(smps)-1]
	fresh := sample(s.Sim(), &s.History()[len(smps)-2])
	if !slices.Equal(last.ReplicaSets, fresh.ReplicaSets) || !slices.Equal(last.Deployments, fresh.Deployments) {
		t.Fatalf("last sample %+v, fresh %+v", last, fresh)
	}
}
