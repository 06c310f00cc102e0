package main

import (
	"encoding/json"
	"testing"

	"github.com/rolloutlab/rolloutlab/scenarios"
)

// followSamples applies one "samplesSince" answer to what the caller holds,
// as the page's engine client does, and checks the result against "samples".
func followSamples(t *testing.T, a api, held []json.RawMessage) (kept int, out []json.RawMessage) {
	t.Helper()
	var d struct {
		Keep int               `json:"keep"`
		Tail []json.RawMessage `json:"tail"`
	}
	callOK(t, a, "samplesSince", nil, &d)
	if d.Tail == nil {
		t.Fatal("tail is null, want an array")
	}
	if d.Keep > len(held) {
		t.Fatalf("keep %d > %d held", d.Keep, len(held))
	}
	out = append(append([]json.RawMessage{}, held[:d.Keep]...), d.Tail...)
	var all []json.RawMessage
	callOK(t, a, "samples", nil, &all)
	if len(all) != len(out) {
		t.Fatalf("followed %d samples, samples has %d", len(out), len(all))
	}
	for i := range all {
		if string(all[i]) != string(out[i]) {
			t.Fatalf("sample %d: followed %s, samples has %s", i, out[i], all[i])
		}
	}
	return d.Keep, out
}

func TestSamplesSinceSendsOnlyWhatChanged(t *testing.T) {
	a := methods()
	src, _ := scenarios.Source(scenarios.Default)
	callOK(t, a, "load", map[string]any{"source": string(src), "name": "r.yaml"}, nil)
	callOK(t, a, "advance", map[string]any{"by": "event", "count": 20}, nil)
	keep, held := followSamples(t, a, nil)
	if keep != 0 || len(held) != 21 {
		t.Fatalf("first call: keep %d, %d samples; want 0, 21", keep, len(held))
	}
	// Nothing new: everything kept.
	if keep, held = followSamples(t, a, held); keep != 21 {
		t.Fatalf("unchanged run: keep %d, want 21", keep)
	}
	// New steps: the old samples are kept, the new ones sent.
	callOK(t, a, "advance", map[string]any{"by": "event", "count": 5}, nil)
	if keep, held = followSamples(t, a, held); keep != 21 || len(held) != 26 {
		t.Fatalf("after 5 steps: keep %d, %d samples; want 21, 26", keep, len(held))
	}
	// A seek changes no sample.
	callOK(t, a, "seek", map[string]any{"step": 10}, nil)
	if keep, held = followSamples(t, a, held); keep != 26 {
		t.Fatalf("after a seek: keep %d, want 26", keep)
	}
	// An action at step 10 discards the future: at most the samples up to it are kept.
	callOK(t, a, "act", map[string]any{"action": map[string]any{"type": "scale", "target": "deployment/web", "replicas": 7}}, nil)
	callOK(t, a, "advance", map[string]any{"by": "event", "count": 5}, nil)
	if keep, held = followSamples(t, a, held); keep > 11 {
		t.Fatalf("after an action at step 10: keep %d, want ≤ 11", keep)
	}
	// A new load starts over.
	callOK(t, a, "load", map[string]any{"source": string(src), "name": "r.yaml"}, nil)
	if keep, _ = followSamples(t, a, held); keep != 0 {
		t.Fatalf("after a load: keep %d, want 0", keep)
	}
}

// TestSamplesSinceReleasesDiscardedSamples checks that the bridge holds no
// sample it no longer needs: none of the previous session after a load, and
// none of a discarded future in the spare capacity of its array.
func TestSamplesSinceReleasesDiscardedSamples(t *testing.T) {
	b := &bridge{}
	a := b.methods()
	src, _ := scenarios.Source(scenarios.Default)
	callOK(t, a, "load", map[string]any{"source": string(src), "name": "r.yaml"}, nil)
	callOK(t, a, "advance", map[string]any{"by": "event", "count": 30}, nil)
	callOK(t, a, "samplesSince", nil, nil)
	if len(b.sent.samples) != 31 {
		t.Fatalf("sent %d samples, want 31", len(b.sent.samples))
	}
	// An action at step 10 discards steps 11..30: the array shrinks in place.
	callOK(t, a, "seek", map[string]any{"step": 10}, nil)
	callOK(t, a, "act", map[string]any{"action": map[string]any{"type": "scale", "target": "deployment/web", "replicas": 7}}, nil)
	callOK(t, a, "samplesSince", nil, nil)
	n := len(b.sent.samples)
	if n >= 31 {
		t.Fatalf("sent %d samples after the action, want fewer than 31", n)
	}
	for i, s := range b.sent.samples[n:cap(b.sent.samples)] {
		if s.Step != 0 || s.ReplicaSets != nil || s.Deployments != nil {
			t.Fatalf("spare slot %d still holds a discarded sample (step %d)", n+i, s.Step)
		}
	}
	// A new load lets the previous session's samples go at once.
	callOK(t, a, "load", map[string]any{"source": string(src), "name": "r.yaml"}, nil)
	if b.sent.of != nil || b.sent.samples != nil {
		t.Fatalf("after a load the bridge still holds %d samples of the previous session", len(b.sent.samples))
	}
}

// TestSamplesSinceKeepsNoMoreThanTheCallerHas checks the {have} argument: a
// caller that lost the samples it was sent gets them again.
func TestSamplesSinceKeepsNoMoreThanTheCallerHas(t *testing.T) {
	a := methods()
	src, _ := scenarios.Source(scenarios.Default)
	callOK(t, a, "load", map[string]any{"source": string(src), "name": "r.yaml"}, nil)
	callOK(t, a, "advance", map[string]any{"by": "event", "count": 20}, nil)
	var d struct {
		Keep int               `json:"keep"`
		Tail []json.RawMessage `json:"tail"`
	}
	for _, c := range []struct {
		why              string
		have, keep, tail int
	}{
		{"first call", 0, 0, 21},
		{"it dropped all but 5: keep at most 5", 5, 5, 16},
		{"it failed to parse an answer: everything again", 0, 0, 21},
		{"it claims more than were sent: keep what was sent", 100, 21, 0},
	} {
		callOK(t, a, "samplesSince", map[string]any{"have": c.have}, &d)
		if d.Keep != c.keep || len(d.Tail) != c.tail {
			t.Fatalf("%s (have %d): keep %d, %d in tail; want %d, %d", c.why, c.have, d.Keep, len(d.Tail), c.keep, c.tail)
		}
	}
}
