package scenariotest

import (
	"fmt"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/check"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// settleRoundsMax bounds how many settle calls Run makes: one per timeline
// entry is enough in practice; the slack covers "when" triggers that wait
// for a later settle.
const settleRoundsMax = 64

// Runner drives a session to its end and checks invariants after every
// step.
type Runner struct {
	// Sess is the session being driven.
	Sess *session.Session
	// Rolling checks surge and availability after every step.
	Rolling *check.RollingChecker
	// Violations are every violation found so far, in step order.
	Violations []check.Violation
	// Steps are the StepInfo of every step taken through the runner.
	Steps []sim.StepInfo
}

// NewRunner wraps sess; the checker starts with no history.
func NewRunner(sess *session.Session) *Runner {
	return &Runner{Sess: sess, Rolling: check.NewRollingChecker()}
}

// StepOnce takes one event and checks invariants. ok is false when nothing
// is due or a limit stopped the run.
func (r *Runner) StepOnce() (sim.StepInfo, bool) {
	steps := r.Sess.Advance(session.ByEvent, 1)
	if len(steps) == 0 {
		return sim.StepInfo{}, false
	}
	info := steps[0]
	r.Steps = append(r.Steps, info)
	sm := r.Sess.Sim()
	r.Violations = append(r.Violations, r.Rolling.AfterStep(sm.Server(), sm.Now(), info.Step, info.Records(sm.Recorder()))...)
	return info, true
}

// Settle steps one event at a time, checking after each, until nothing is
// due within the settle horizon from where it started (the semantics of
// session.BySettle), or maxSteps steps were taken. It returns the steps
// taken.
func (r *Runner) Settle(maxSteps int) int {
	sm := r.Sess.Sim()
	horizon := sm.Now().Add(sm.Options().Limits.SettleHorizon)
	n := 0
	for n < maxSteps {
		at, ok := sm.NextDue()
		if !ok || at.After(horizon) {
			break
		}
		if _, ok := r.StepOnce(); !ok {
			break
		}
		n++
	}
	return n
}

// RunToEnd settles repeatedly while timeline actions are pending and the
// last settle made progress, at most settleRoundsMax times, each bounded by
// maxSteps. It returns the total steps taken.
func (r *Runner) RunToEnd(maxSteps int) int {
	total := 0
	for round := 0; round < settleRoundsMax; round++ {
		n := r.Settle(maxSteps)
		total += n
		if n == 0 || len(r.Sess.Sim().PendingActions()) == 0 || r.Sess.Sim().Err() != nil {
			break
		}
	}
	return total
}

// Incomplete runs check.Incomplete with the images' health as the
// simulation's kubelet sees it.
func (r *Runner) Incomplete() []check.Violation {
	sm := r.Sess.Sim()
	cfg := sm.Kubelet().Config()
	return check.Incomplete(sm.Server(), sm.Steps(), func(image string) bool { return cfg.Profile(image).Healthy() })
}

// Failure renders violations as a failure message carrying the seed, or ""
// when there are none.
func (r *Runner) Failure(vs []check.Violation) string {
	if len(vs) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "scenario %s seed=%d: %d invariant violation(s):", r.Sess.Scenario().Name, r.Sess.Seed(), len(vs))
	for i, v := range vs {
		if i == 10 {
			fmt.Fprintf(&b, "\n  ... and %d more", len(vs)-10)
			break
		}
		b.WriteString("\n  " + v.String())
	}
	return b.String()
}
