package scenariotest

import (
	"fmt"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/check"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

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

// NewRunner wraps sess and installs itself as the session's step observer:
// every step the session takes from now on is recorded and checked. The
// checker starts with no history.
func NewRunner(sess *session.Session) *Runner {
	r := &Runner{Sess: sess, Rolling: check.NewRollingChecker()}
	sess.SetStepObserver(r.afterStep)
	return r
}

func (r *Runner) afterStep(info sim.StepInfo) {
	r.Steps = append(r.Steps, info)
	sm := r.Sess.Sim()
	r.Violations = append(r.Violations, r.Rolling.AfterStep(sm.Server(), sm.Now(), info.Step, info.Records(sm.Recorder()))...)
}

// StepOnce takes one event. ok is false when nothing is due or a limit
// stopped the run.
func (r *Runner) StepOnce() (sim.StepInfo, bool) {
	steps := r.Sess.Advance(session.ByEvent, 1)
	if len(steps) == 0 {
		return sim.StepInfo{}, false
	}
	return steps[0], true
}

// Settle settles the session (session.BySettle) and returns the steps taken.
func (r *Runner) Settle() int { return len(r.Sess.Advance(session.BySettle, 1)) }

// RunToEnd plays the scenario out (session.RunToEnd) and returns the steps
// taken.
func (r *Runner) RunToEnd() int { return len(r.Sess.RunToEnd()) }

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
