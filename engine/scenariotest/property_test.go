package scenariotest

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// propertyBudget returns runs and steps per run: smaller under -short and
// under js/wasm, where the suite must stay well under two minutes.
func propertyBudget() (runs, steps int) {
	switch {
	case runtime.GOOS == "js":
		return 8, 1000
	case testing.Short():
		return 20, 1000
	}
	return 50, 2000
}

// fencepost draws a maxSurge or maxUnavailable value: an int 0..5 or a
// percent; maxUnavailable percents stay at or below 100%.
func fencepost(s *rng.Stream) string {
	if s.Intn(2) == 0 {
		return fmt.Sprint(s.Intn(6))
	}
	return fmt.Sprintf("%d%%", []int{0, 10, 25, 50, 75, 100}[s.Intn(6)])
}

// randomDeployment renders a scenario with one random small Deployment.
func randomDeployment(s *rng.Stream, seed uint64) string {
	surge, unavail := fencepost(s), fencepost(s)
	for (surge == "0" || surge == "0%") && (unavail == "0" || unavail == "0%") {
		unavail = fencepost(s)
	}
	return fmt.Sprintf(`apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: property}
spec:
  seed: %d
  cluster: {nodes: 3}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  minReadySeconds: %d
  selector:
    matchLabels: {app: web}
  strategy:
    rollingUpdate: {maxSurge: %s, maxUnavailable: %s}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: web, image: "nginx:1"}
`, seed, s.Intn(21), s.Intn(6), surge, unavail)
}

// randomAction draws one user action as JSON.
func randomAction(s *rng.Stream, sess *session.Session) string {
	const d = `"target":"deployment/web"`
	switch s.Intn(10) {
	case 0, 1:
		return fmt.Sprintf(`{"type":"scale",%s,"replicas":%d}`, d, s.Intn(21))
	case 2, 3:
		return fmt.Sprintf(`{"type":"setImage",%s,"image":"nginx:%d"}`, d, 1+s.Intn(5))
	case 4:
		return `{"type":"pause",` + d + `}`
	case 5:
		return `{"type":"resume",` + d + `}`
	case 6:
		return `{"type":"restart",` + d + `}`
	case 7:
		return `{"type":"undo",` + d + `}`
	case 8:
		pods := sess.Sim().Server().ListPods("default", nil)
		if len(pods) > 0 {
			return `{"type":"deletePod","name":"` + pods[s.Intn(len(pods))].Name + `"}`
		}
		return `{"type":"resume",` + d + `}`
	}
	node := fmt.Sprintf("node-%d", 1+s.Intn(3))
	if s.Intn(2) == 0 {
		return `{"type":"failNode","node":"` + node + `"}`
	}
	return `{"type":"recoverNode","node":"` + node + `"}`
}

// TestPropertyRandomActions drives random small Deployments with random
// user actions, checks the rolling invariants after every step, and at the
// end (nodes recovered, resumed) requires the rollout to complete.
func TestPropertyRandomActions(t *testing.T) {
	runs, steps := propertyBudget()
	for i := 0; i < runs; i++ {
		seed := uint64(1000 + i)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := rng.New(seed).Stream("property")
			text := randomDeployment(s, seed)
			r := load(t, "property.yaml", text)
			var actions []string
			for r.Sess.Step() < steps {
				if s.Intn(8) == 0 {
					a := randomAction(s, r.Sess)
					actions = append(actions, fmt.Sprintf("step %d: %s", r.Sess.Step(), a))
					parsed, err := r.Sess.ParseUserAction([]byte(a))
					if err != nil {
						t.Fatalf("seed=%d: parse %s: %v", seed, a, err)
					}
					_, _ = r.Sess.Apply(parsed) // refusals (undo without history...) are fine
				}
				if _, ok := r.StepOnce(); !ok && r.Sess.Sim().Err() != nil {
					break
				}
			}
			// End state: every node up and the Deployment resumed, so the
			// rollout must complete.
			for _, a := range []string{`{"type":"resume","target":"deployment/web"}`,
				`{"type":"recoverNode","node":"node-1"}`, `{"type":"recoverNode","node":"node-2"}`, `{"type":"recoverNode","node":"node-3"}`} {
				parsed, err := r.Sess.ParseUserAction([]byte(a))
				if err != nil {
					t.Fatal(err)
				}
				_, _ = r.Sess.Apply(parsed) // resuming a running Deployment may be refused
			}
			r.RunToEnd()
			fail := r.Failure(append(r.Violations, r.Incomplete()...))
			if err := r.Sess.Sim().Err(); err != nil {
				fail += fmt.Sprintf("\nrun stopped: %v", err)
			}
			if fail != "" {
				t.Fatalf("seed=%d\n%s\nscenario:\n%s\nactions:\n%s", seed, fail, text, strings.Join(actions, "\n"))
			}
		})
	}
}

// FuzzScenario feeds scenario text through session.Load and a bounded
// settle: no panic, and load errors are scenario errors or SetupErrors.
func FuzzScenario(f *testing.F) {
	for _, id := range scenarios.IDs() {
		src, _ := scenarios.Source(id)
		f.Add(src)
	}
	f.Add([]byte("apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: x}\nspec: {}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sess, err := session.Load("fuzz.yaml", src, nil)
		if err != nil {
			var setup *session.SetupError
			if !errors.Is(err, scenario.ErrInvalid) && !errors.As(err, &setup) {
				t.Fatalf("Load returned %T %v; want a scenario error or *SetupError", err, err)
			}
			return
		}
		r := NewRunner(sess)
		for round := 0; round < 4 && len(sess.Sim().PendingActions()) > 0 || round == 0; round++ {
			if r.Settle() == 0 {
				break
			}
		}
		_ = sess.View(session.ViewOptions{MaxPods: 50})
		for _, cmd := range []string{"get deploy", "get rs", "get pods -o wide"} {
			if _, err := sess.Kubectl(cmd); err != nil {
				t.Fatalf("kubectl %s: %v", cmd, err)
			}
		}
	})
}
