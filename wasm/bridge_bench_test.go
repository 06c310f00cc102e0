package main

import (
	"encoding/json"
	"fmt"
	"testing"
)

// rolloutScenario is the Deployment scripts/bench-browser.mjs generates: n
// replicas, 25% surge and unavailability, and a pod limit with room for a
// rollout's surge and terminating pods within the browser's ceiling (the
// run never reaches it, nor engine/sim's benchmark limit of 2n + 100).
func rolloutScenario(n int) string {
	return fmt.Sprintf(`apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: bench-%d}
spec:
  seed: 1
  limits: {maxPods: %d}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%%, maxUnavailable: 25%%}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1.25}]}
`, n, min(20000, max(10000, 2*n)), n)
}

// BenchmarkBridgeSettle times the bridge call a Settle press makes after an
// image change: "advance" by settle through a whole rolling update of 1,000
// and of 10,000 replicas, with the session's work on top of the engine's
// (its step history, rewind checkpoints and samples) and the answer's JSON,
// which lists every step. It is engine/sim's BenchmarkRollingUpdate run,
// step for step (steps/op), as the page's Worker runs it: scripts/bench-
// browser.mjs times the same call there ("rollout in the page's Worker").
func BenchmarkBridgeSettle(b *testing.B) {
	arg := func(v any) string { s, _ := json.Marshal(v); return string(s) }
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var answer struct {
				Value struct {
					Steps []json.RawMessage `json:"steps"`
				} `json:"value"`
			}
			var bytes int
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				a := methods()
				for _, c := range [][2]string{
					{"load", arg(map[string]any{"source": rolloutScenario(n), "name": "bench.yaml", "maxPods": 150})},
					{"advance", arg(map[string]any{"by": "settle", "maxPods": 150})},
					{"act", arg(map[string]any{"action": map[string]any{"type": "setImage", "target": "deployment/web", "image": "nginx:1.26"}, "maxPods": 150})},
				} {
					if out := a.call(c[0], c[1]); !json.Valid([]byte(out)) || !jsonOK(out) {
						b.Fatalf("%s: %.300s", c[0], out)
					}
				}
				b.StartTimer()
				out := a.call("advance", arg(map[string]any{"by": "settle", "maxPods": 150}))
				b.StopTimer()
				if !jsonOK(out) {
					b.Fatalf("settle: %.300s", out)
				}
				bytes = len(out)
				if err := json.Unmarshal([]byte(out), &answer); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(len(answer.Value.Steps)), "steps/op")
			b.ReportMetric(float64(bytes), "answer-bytes")
		})
	}
}

// jsonOK reports whether a bridge answer says ok.
func jsonOK(out string) bool {
	var env struct {
		OK bool `json:"ok"`
	}
	return json.Unmarshal([]byte(out), &env) == nil && env.OK
}
