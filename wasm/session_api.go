package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// errNoSession is returned by methods that need a loaded scenario.
var errNoSession = errors.New("no scenario loaded: call load first")

// bridge holds the one session the page works on. Its methods decode
// arguments, call engine/session and shape the result; nothing else.
type bridge struct {
	sess *session.Session
	// goodStep is the last step the session reached without a panic; after
	// a panic the session is restored there.
	goodStep int
	// sent is what "samplesSince" last returned.
	sent samplesSent
}

// snapshot is the value most methods return (see docs/bridge-api.md).
type snapshot struct {
	View    *session.View    `json:"view"`
	Steps   []sim.StepInfo   `json:"steps,omitempty"`
	Message string           `json:"message,omitempty"`
	Samples []session.Sample `json:"samples,omitempty"`
	// Annotations are the scenario's spec.annotations (load only).
	Annotations []scenario.Annotation `json:"annotations,omitempty"`
	// Notices are the loaded file's notices (load only).
	Notices []scenario.Notice `json:"notices,omitempty"`
}

type viewArgs struct {
	MaxPods   int    `json:"maxPods"`
	PodsSince string `json:"podsSince"`
}

func decodeArgs(args json.RawMessage, into any) error {
	if string(args) == "null" {
		return nil
	}
	if err := json.Unmarshal(args, into); err != nil {
		return fmt.Errorf("bad arguments: %w", err)
	}
	return nil
}

// guarded runs fn against the session; if fn panics, the session is rebuilt
// at the last good step before the panic is passed on to the dispatcher,
// which reports it. The simulation therefore stays usable. (A user action
// that panics is undone by session.Apply itself, which reports it as an
// error marked as a panic.)
func (b *bridge) guarded(fn func(s *session.Session) (any, error)) (any, error) {
	if b.sess == nil {
		return nil, errNoSession
	}
	defer func() {
		if p := recover(); p != nil {
			if b.sess != nil {
				func() {
					defer func() { _ = recover() }()
					_ = b.sess.Restore(b.goodStep)
				}()
			}
			panic(p)
		}
	}()
	v, err := fn(b.sess)
	b.goodStep = b.sess.Step()
	return v, err
}

func (b *bridge) view(s *session.Session, a viewArgs) *session.View {
	return s.View(session.ViewOptions{MaxPods: a.MaxPods, PodsSince: a.PodsSince})
}

// methods of the session API, merged into the dispatch table by methods().
func (b *bridge) methods() map[string]handler {
	return map[string]handler{
		"library":        b.library,
		"load":           b.load,
		"advance":        b.advance,
		"seek":           b.seek,
		"ahead":          b.ahead,
		"act":            b.act,
		"view":           b.viewMethod,
		"steps":          b.steps,
		"samples":        b.samples,
		"samplesSince":   b.samplesSince,
		"records":        b.records,
		"kubectl":        b.kubectl,
		"targets":        b.targets,
		"fork":           b.fork,
		"exportScenario": b.exportScenario,
		"checkpoints":    b.checkpoints,
		"refine":         b.refine,
	}
}

type libraryEntry struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Translations are the description in other languages (metadata.translations).
	Translations map[string]scenario.ScenarioText `json:"translations,omitempty"`
	Source       string                           `json:"source"`
}

func (b *bridge) library(json.RawMessage) (any, error) {
	var out []libraryEntry
	for _, id := range scenarios.IDs() {
		src, _ := scenarios.Source(id)
		e := libraryEntry{ID: id, Name: id, Source: string(src)}
		if sc, err := scenario.Parse(id+".yaml", src); err == nil {
			e.Name, e.Description, e.Translations = sc.Name, sc.Description, sc.Translations
		}
		out = append(out, e)
	}
	return out, nil
}

func (b *bridge) load(args json.RawMessage) (any, error) {
	var a struct {
		Source string  `json:"source"`
		Name   string  `json:"name"`
		Seed   *uint64 `json:"seed"`
		// SpecOnly starts pasted cluster output from its specs.
		SpecOnly bool `json:"specOnly"`
		viewArgs
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	if a.Name == "" {
		a.Name = "scenario.yaml"
	}
	s, err := session.LoadWith(a.Name, []byte(a.Source), session.LoadOptions{Seed: a.Seed, SpecOnly: a.SpecOnly, Ceilings: &scenario.BrowserCeilings})
	if err != nil {
		return nil, err // the previous session stays
	}
	b.sess, b.goodStep = s, 0
	// The samples sent belong to the previous session: let them go now,
	// not at the next "samplesSince".
	b.sent = samplesSent{}
	return snapshot{View: b.view(s, a.viewArgs), Samples: s.Samples(), Annotations: s.Scenario().Annotations, Notices: s.Scenario().Notices}, nil
}

func (b *bridge) advance(args json.RawMessage) (any, error) {
	var a struct {
		By    string `json:"by"`
		Count int    `json:"count"`
		viewArgs
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	g, err := session.ParseGranularity(a.By)
	if err != nil {
		return nil, err
	}
	if a.Count <= 0 {
		a.Count = 1
	}
	return b.guarded(func(s *session.Session) (any, error) {
		steps := s.Advance(g, a.Count)
		return snapshot{View: b.view(s, a.viewArgs), Steps: steps}, nil
	})
}

func (b *bridge) seek(args json.RawMessage) (any, error) {
	var a struct {
		Step int `json:"step"`
		viewArgs
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	return b.guarded(func(s *session.Session) (any, error) {
		if err := s.Seek(a.Step); err != nil {
			return nil, err
		}
		return snapshot{View: b.view(s, a.viewArgs)}, nil
	})
}

// ahead computes more of the run without moving (Session.ComputeAhead).
func (b *bridge) ahead(args json.RawMessage) (any, error) {
	var a struct {
		Steps int `json:"steps"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	return b.guarded(func(s *session.Session) (any, error) {
		ended, err := s.ComputeAhead(a.Steps)
		if err != nil {
			return nil, err
		}
		return struct {
			MaxStep int  `json:"maxStep"`
			Ended   bool `json:"ended"`
		}{s.MaxStep(), ended}, nil
	})
}

func (b *bridge) act(args json.RawMessage) (any, error) {
	var a struct {
		Action json.RawMessage `json:"action"`
		viewArgs
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	return b.guarded(func(s *session.Session) (any, error) {
		action, err := s.ParseUserAction(a.Action)
		if err != nil {
			return nil, err
		}
		msg, err := s.Apply(action)
		if err != nil {
			return nil, err
		}
		return snapshot{View: b.view(s, a.viewArgs), Message: msg}, nil
	})
}

func (b *bridge) viewMethod(args json.RawMessage) (any, error) {
	var a viewArgs
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	return b.guarded(func(s *session.Session) (any, error) { return snapshot{View: b.view(s, a)}, nil })
}

func (b *bridge) steps(args json.RawMessage) (any, error) {
	var a struct{ From, To int }
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	return b.guarded(func(s *session.Session) (any, error) {
		h := s.History()
		from, to := max(a.From, 1), len(h)
		if a.To > 0 && a.To < to {
			to = a.To
		}
		if from > to {
			return []sim.StepInfo{}, nil
		}
		return h[from-1 : to], nil
	})
}

// checkpoints reports the session's rewind points (session.CheckpointStats):
// scripts/bench-browser.mjs seeks to the end of the largest gap between
// them, the slowest seek the run has.
func (b *bridge) checkpoints(json.RawMessage) (any, error) {
	return b.guarded(func(s *session.Session) (any, error) { return s.CheckpointStats(), nil })
}

// refine does one unit of idle work on the rewind checkpoints
// (session.RefineCheckpoints): the page's Worker calls it when no call
// has come for a while (after "idle", which may collect garbage first),
// again soon after while it reports {refined: true}, then "idle" once
// more.
func (b *bridge) refine(json.RawMessage) (any, error) {
	return b.guarded(func(s *session.Session) (any, error) {
		return struct {
			Refined bool `json:"refined"`
		}{s.RefineCheckpoints()}, nil
	})
}

func (b *bridge) samples(json.RawMessage) (any, error) {
	return b.guarded(func(s *session.Session) (any, error) { return s.Samples(), nil })
}

func (b *bridge) records(args json.RawMessage) (any, error) {
	var a struct {
		From    uint64   `json:"from"`
		To      uint64   `json:"to"`
		Kinds   []string `json:"kinds"`
		Sources []string `json:"sources"`
		Limit   int      `json:"limit"`
		Last    bool     `json:"last"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	return b.guarded(func(s *session.Session) (any, error) {
		recs, total := session.FilterRecords(s.Sim().Recorder(), session.RecordFilter{From: a.From, To: a.To, Kinds: a.Kinds, Sources: a.Sources, Limit: a.Limit, Last: a.Last})
		return struct {
			Records []trace.Record `json:"records"`
			Total   int            `json:"total"`
		}{recs, total}, nil
	})
}

func (b *bridge) kubectl(args json.RawMessage) (any, error) {
	var a struct {
		Command string `json:"command"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	return b.guarded(func(s *session.Session) (any, error) {
		out, err := s.Kubectl(a.Command)
		if err != nil {
			return nil, err
		}
		return struct {
			Output string `json:"output"`
		}{out}, nil
	})
}

func (b *bridge) targets(json.RawMessage) (any, error) {
	return b.guarded(func(s *session.Session) (any, error) {
		return struct {
			Deployments []session.Target `json:"deployments"`
		}{s.Targets()}, nil
	})
}
