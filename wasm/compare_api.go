package main

import (
	"encoding/json"

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
// the given actions are done (B, or the label given): instead of the
// user's own actions at atStep, or after them with keepAt. The page's
// session is not moved.
func (b *bridge) fork(args json.RawMessage) (any, error) {
	var a struct {
		AtStep int             `json:"atStep"`
		Action json.RawMessage `json:"action"`
		// Label names the forked run in the result's sentences ("B" when
		// empty; a page comparing several alternatives passes C, D...).
		Label   string            `json:"label"`
		Actions []json.RawMessage `json:"actions"`
		// KeepAt keeps the user actions made at atStep in the forked run,
		// before the given ones; KeepLater keeps those made after atStep
		// (compare.Keep).
		KeepAt    bool `json:"keepAt"`
		KeepLater bool `json:"keepLater"`
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
		r, ra, rb, err := compare.Fork(s, a.AtStep, a.Label, alt, compare.Keep{At: a.KeepAt, Later: a.KeepLater})
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
