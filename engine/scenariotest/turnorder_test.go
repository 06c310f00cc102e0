package scenariotest

import (
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/check"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// withTurnOrder returns the rolling-update-10-3-2 library scenario with
// spec.cluster.turnOrder set to policy ("" leaves the default).
func withTurnOrder(t *testing.T, policy string) string {
	t.Helper()
	src, ok := scenarios.Source("rolling-update-10-3-2")
	if !ok {
		t.Fatal("no rolling-update-10-3-2 scenario")
	}
	text := string(src)
	if policy != "" {
		text = strings.Replace(text, "  seed: 1\n", "  seed: 1\n  cluster: {turnOrder: "+policy+"}\n", 1)
	}
	return text
}

// turnRun is a finished run under one policy.
type turnRun struct {
	trace string
	// syncs lists the component of every sync step, in order, and
	// choices[i] the TurnChoice recorded by syncs[i], if any.
	syncs   []string
	choices []*sim.TurnChoice
	// nChoices counts the recorded choices.
	nChoices int
}

// runTurnOrder plays the scenario under policy to its end. It checks what
// every interleaving guarantees: the ReplicaSets' desired replicas never
// exceed replicas + maxSurge (13) and the rollout completes. (The pod-level
// surge check of the golden runs is not asked for: when one controller
// drains its queue first, the new ReplicaSet's pods can be created before
// the old one's are deleted, as in a real cluster.)
func runTurnOrder(t *testing.T, policy string) turnRun {
	t.Helper()
	sess, err := session.Load("turns.yaml", []byte(withTurnOrder(t, policy)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out turnRun
	rec := sess.Sim().Recorder()
	sess.SetStepObserver(func(st sim.StepInfo) {
		var desired int32
		for _, rs := range sess.Sim().Server().ListReplicaSets("default", nil) {
			desired += *rs.Spec.Replicas
		}
		if desired > 13 {
			t.Fatalf("%s: step %d: ReplicaSets want %d pods > 10 + maxSurge 3", policy, st.Step, desired)
		}
		if st.Kind != sim.StepSync {
			return
		}
		var choice *sim.TurnChoice
		for _, rd := range st.Records(rec) {
			if c, ok := rd.Data.(sim.TurnChoice); ok {
				choice = &c
				out.nChoices++
			}
		}
		out.syncs = append(out.syncs, st.Component)
		out.choices = append(out.choices, choice)
	})
	sess.RunToEnd()
	if err := sess.Sim().Err(); err != nil || len(sess.Sim().PendingActions()) > 0 {
		t.Fatalf("%s: run stopped (%v) or actions pending", policy, err)
	}
	if vs := check.Incomplete(sess.Sim().Server(), sess.Step(), func(string) bool { return true }); len(vs) > 0 {
		t.Fatalf("%s: rollout incomplete: %v", policy, vs)
	}
	out.trace = rec.Text()
	return out
}

// The turn-order policies give different, valid interleavings of the same
// rollout; each is deterministic; every choice of a non-default policy is
// recorded (and obeys the policy), the default records none.
func TestTurnOrderPolicies(t *testing.T) {
	runs := map[string]turnRun{}
	for _, policy := range []string{"", "alternate", "deploymentFirst", "drainQueue", "random"} {
		a, b := runTurnOrder(t, policy), runTurnOrder(t, policy)
		if a.trace != b.trace {
			t.Fatalf("policy %q is not deterministic:\n%s", policy, firstDiff(a.trace, b.trace))
		}
		runs[policy] = a
	}
	if runs[""].trace != runs["alternate"].trace {
		t.Error("naming the default policy changed the run")
	}
	if n := runs["alternate"].nChoices; n != 0 {
		t.Errorf("the default policy recorded %d choices, want none", n)
	}
	for _, policy := range []string{"deploymentFirst", "drainQueue", "random"} {
		run := runs[policy]
		if strings.Join(run.syncs, ",") == strings.Join(runs["alternate"].syncs, ",") {
			t.Errorf("%s: same sync order as alternate", policy)
		}
		if run.nChoices == 0 {
			t.Fatalf("%s: no interleaving choice recorded", policy)
		}
		if !strings.Contains(run.trace, "turnOrder="+policy) {
			t.Errorf("%s: the start note does not name the policy", policy)
		}
		prev := ""
		for i, c := range run.choices {
			if c != nil {
				if c.Policy != policy || len(c.Ready) < 2 || c.Chosen != run.syncs[i] {
					t.Errorf("%s: choice %+v in a %s sync step", policy, *c, run.syncs[i])
				}
				if policy == "deploymentFirst" && c.Chosen != "deployment-controller" {
					t.Errorf("deploymentFirst gave the turn to %s", c.Chosen)
				}
				// drainQueue: the controller that synced last keeps the
				// turn while it has work.
				if policy == "drainQueue" && prev != "" && contains(c.Ready, prev) && c.Chosen != prev {
					t.Errorf("drainQueue switched from %s to %s while %s had work", prev, c.Chosen, prev)
				}
			}
			prev = run.syncs[i]
		}
	}
	if strings.Join(runs["deploymentFirst"].syncs, ",") == strings.Join(runs["drainQueue"].syncs, ",") {
		t.Error("deploymentFirst and drainQueue gave the same order")
	}
	// The new record kind is documented for the UI.
	if trace.KindTurn.String() != "turn" {
		t.Errorf("kind %q", trace.KindTurn)
	}
}

// An unknown policy is a parse error naming the field and the choices.
func TestTurnOrderUnknownPolicy(t *testing.T) {
	_, err := session.Load("turns.yaml", []byte(withTurnOrder(t, "drainQeue")), nil)
	if err == nil || !strings.Contains(err.Error(), `spec.cluster.turnOrder: unknown turn order "drainQeue" (did you mean "drainQueue"?)`) {
		t.Fatalf("err = %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
