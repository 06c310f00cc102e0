package session

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// benchScenario is a Deployment of n replicas whose image changes once the
// first rollout completes.
func benchScenario(n int) []byte {
	return fmt.Appendf(nil, `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata:
  name: bench-%d
spec:
  seed: 3
  timeline:
    - when: {rolloutComplete: deployment/web}
      action: setImage
      target: deployment/web
      image: nginx:1.26
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`, n, n)
}

// benchDeployment is the same Deployment without a timeline.
func benchDeployment(n int) []byte {
	return fmt.Appendf(nil, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`, n)
}

func loadBench(b *testing.B, src []byte) *Session {
	b.Helper()
	s, err := Load("bench.yaml", src, nil)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkSeek1000 seeks to random steps of a 1,000-step run (60 replicas
// created, then rolled out to a new image); seeking backwards replays from
// the start.
func BenchmarkSeek1000(b *testing.B) {
	s := loadBench(b, benchScenario(60))
	const steps = 1000
	if err := s.Seek(steps); err != nil {
		b.Fatal(err)
	}
	r := rng.New(1).Stream("seek")
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Seek(r.Intn(steps + 1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkView1000 builds the View of a settled 1,000-pod cluster.
func BenchmarkView1000(b *testing.B) {
	s := loadBench(b, benchDeployment(1000))
	s.Advance(BySettle, 1)
	if got := len(s.Sim().Server().ListPods("", nil)); got != 1000 {
		b.Fatalf("%d pods, want 1000", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		if v := s.View(ViewOptions{}); len(v.Pods) != 1000 {
			b.Fatalf("%d pods in view", len(v.Pods))
		}
	}
}

// BenchmarkStepView1000 times steps of a 1,000-replica rolling update
// together with the View the UI would render after them (the engine part of
// the per-frame budget) and reports the 95th percentile. Every step runs; one
// in viewEvery is timed with its View, to keep the benchmark short.
func BenchmarkStepView1000(b *testing.B) {
	const viewEvery = 10
	b.ReportAllocs()
	var perStep []time.Duration
	total := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := loadBench(b, benchDeployment(1000))
		s.Advance(BySettle, 1)
		setImage := scenario.Action{Type: scenario.ActionSetImage, Image: "nginx:1.26",
			Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}}
		if _, err := s.Apply(setImage); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for n := 0; ; n++ {
			if n%viewEvery != 0 {
				if len(s.Advance(ByEvent, 1)) == 0 {
					break
				}
				total++
				continue
			}
			t0 := time.Now()
			if len(s.Advance(ByEvent, 1)) == 0 {
				break
			}
			_ = s.View(ViewOptions{})
			perStep = append(perStep, time.Since(t0))
			total++
		}
	}
	sort.Slice(perStep, func(i, j int) bool { return perStep[i] < perStep[j] })
	if len(perStep) > 0 {
		b.ReportMetric(float64(perStep[len(perStep)*95/100].Microseconds()), "p95-µs/step")
		b.ReportMetric(float64(perStep[len(perStep)-1].Microseconds()), "max-µs/step")
	}
	b.ReportMetric(float64(total)/float64(b.N), "steps/op")
}
