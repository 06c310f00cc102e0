package main

import (
	"encoding/json"
	"fmt"

	"github.com/rolloutlab/rolloutlab/engine/compare"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/session"
)

// comparison is what fork and compare return (docs/bridge-api.md): the
// engine's compare.Result plus both runs' chart samples.
type comparison struct {
	*compare.Result
	SamplesA []session.Sample `json:"samplesA"`
	SamplesB []session.Sample `json:"samplesB"`
}

// fork compares the page's run (A) with the run forked at atStep in which
// the given actions are done instead (B). The page's session is not moved.
func (b *bridge) fork(args json.RawMessage) (any, error) {
	var a struct {
		AtStep  int               `json:"atStep"`
		Action  json.RawMessage   `json:"action"`
		Actions []json.RawMessage `json:"actions"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	if len(a.Action) > 0 {
		a.Actions = append([]json.RawMessage{a.Action}, a.Actions...)
	}
	return b.guarded(func(s *session.Session) (any, error) {
		var alt []scenario.Action
		for _, raw := range a.Actions {
			act, err := s.ParseUserAction(raw)
			if err != nil {
				return nil, err
			}
			alt = append(alt, act)
		}
		r, ra, rb, err := compare.Fork(s, a.AtStep, alt)
		if err != nil {
			return nil, err
		}
		return comparison{Result: r, SamplesA: ra.Samples(), SamplesB: rb.Samples()}, nil
	})
}

// compareMethod compares the loaded scenario file from step 0 (A) with
// another file (sourceB) or with the same file under --set overrides.
func (b *bridge) compareMethod(args json.RawMessage) (any, error) {
	var a struct {
		SourceB string   `json:"sourceB"`
		NameB   string   `json:"nameB"`
		Set     []string `json:"set"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	if (a.SourceB == "") == (len(a.Set) == 0) {
		return nil, fmt.Errorf("compare takes either sourceB or set")
	}
	return b.guarded(func(s *session.Session) (any, error) {
		name, src, seed := "A", s.Source(), s.Seed()
		ra, err := session.Load(name, src, &seed)
		if err != nil {
			return nil, err
		}
		var rb *session.Session
		labelB := a.NameB
		if a.SourceB != "" {
			if labelB == "" {
				labelB = "B"
			}
			rb, err = session.Load(labelB, []byte(a.SourceB), &seed)
		} else {
			var overrides []compare.Override
			for _, set := range a.Set {
				o, perr := compare.ParseOverride(set)
				if perr != nil {
					return nil, perr
				}
				overrides = append(overrides, o)
			}
			labelB = compare.OverridesLabel(overrides)
			rb, err = compare.Overridden(name, src, overrides, &seed)
		}
		if err != nil {
			return nil, err
		}
		r, err := compare.Compare(compare.Side{Label: name, Session: ra}, compare.Side{Label: labelB, Session: rb})
		if err != nil {
			return nil, err
		}
		return comparison{Result: r, SamplesA: ra.Samples(), SamplesB: rb.Samples()}, nil
	})
}

// exportScenario returns the loaded file with the user's actions folded
// into its timeline (session.ExportScenario).
func (b *bridge) exportScenario(json.RawMessage) (any, error) {
	return b.guarded(func(s *session.Session) (any, error) {
		return struct {
			Name string `json:"name"`
			YAML string `json:"yaml"`
		}{s.Scenario().Name, string(s.ExportScenario())}, nil
	})
}
