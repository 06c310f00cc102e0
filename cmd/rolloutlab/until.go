package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// untilKind says where `run --until` stops.
type untilKind uint8

const (
	// untilSettle plays the scenario out: settle while timeline actions
	// are pending (session.RunToEnd).
	untilSettle untilKind = iota + 1
	// untilTime runs every event due up to a virtual time
	// (session.RunToTime).
	untilTime
	// untilStep stops right after a step number (session.Seek).
	untilStep
)

// String names the kind as --until spells it.
func (k untilKind) String() string {
	switch k {
	case untilSettle:
		return "settle"
	case untilTime:
		return "time"
	case untilStep:
		return "step"
	}
	return fmt.Sprintf("untilKind(%d)", uint8(k))
}

// errBadUntil is wrapped by every parseUntil error.
var errBadUntil = errors.New("invalid --until")

// until is a parsed --until value.
type until struct {
	kind untilKind
	// at is the virtual time since the start, for untilTime; >= 0.
	at time.Duration
	// step is the step number, for untilStep; >= 0.
	step int
}

// parseUntil reads --until: "settle", a Go duration of virtual time since
// the start, or "step=N".
//
//	"settle"  → until{kind: untilSettle}
//	"90s"     → until{kind: untilTime, at: 90s}
//	"1m30s"   → until{kind: untilTime, at: 90s}
//	"step=12" → until{kind: untilStep, step: 12}
//	"-5s", "step=x", "soon" → error
func parseUntil(s string) (until, error) {
	if s == "settle" {
		return until{kind: untilSettle}, nil
	}
	if n, ok := strings.CutPrefix(s, "step="); ok {
		step, err := strconv.Atoi(n)
		if err != nil || step < 0 {
			return until{}, fmt.Errorf("%w %q: step=N needs a whole number N >= 0", errBadUntil, s)
		}
		return until{kind: untilStep, step: step}, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return until{}, fmt.Errorf("%w %q: want settle, a duration such as 90s or 2m, or step=N", errBadUntil, s)
	}
	return until{kind: untilTime, at: d}, nil
}

// String renders the value as --until spells it.
func (u until) String() string {
	switch u.kind {
	case untilTime:
		return u.at.String()
	case untilStep:
		return "step=" + strconv.Itoa(u.step)
	}
	return u.kind.String()
}

// drive advances s to where u says. Only Seek can fail: when the run ends
// before step u.step (the error wraps session.ErrNoSuchStep).
func (u until) drive(s *session.Session) error {
	switch u.kind {
	case untilTime:
		s.RunToTime(u.at)
	case untilStep:
		return s.Seek(u.step)
	default:
		s.RunToEnd()
	}
	return nil
}

// actionSteps returns the steps of the current run in which a timeline
// action ran.
func actionSteps(s *session.Session) []sim.StepInfo {
	var out []sim.StepInfo
	for _, info := range s.History()[:s.Step()] {
		if info.Kind == sim.StepAction {
			out = append(out, info)
		}
	}
	return out
}
