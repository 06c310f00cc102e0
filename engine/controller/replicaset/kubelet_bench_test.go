package replicaset_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// benchScaleUp measures a ReplicaSet going from 0 to n replicas, all
// available, with the kubelet model starting the pods (through engine/sim).
func benchScaleUp(b *testing.B, n int32) {
	b.ReportAllocs()
	steps := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		opts := sim.DefaultOptions(1)
		opts.Limits.MaxPods = int(n) + 100
		s, err := sim.New(opts)
		if err != nil {
			b.Fatal(err)
		}
		zero := int32(0)
		lbl := map[string]string{"app": "web"}
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: appsv1.ReplicaSetSpec{Replicas: &zero, Selector: &metav1.LabelSelector{MatchLabels: lbl},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: lbl},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.25"}}}}}}
		run := func(name string, fn func(k *kubectl.Kubectl) (string, error)) {
			if err := s.Do(&sim.Action{Name: name, Do: func(s *sim.Sim) (string, error) { return fn(kubectl.New(s.Server(), s.Clock())) }}); err != nil {
				b.Fatal(err)
			}
		}
		run("create rs/web", func(k *kubectl.Kubectl) (string, error) { return k.Apply(rs) })
		if _, idle := s.Settle(1_000_000); !idle {
			b.Fatal("did not settle")
		}
		b.StartTimer()
		run("scale rs/web", func(k *kubectl.Kubectl) (string, error) { return k.Scale("replicasets", "default", "web", n) })
		taken, idle := s.Settle(10_000_000)
		b.StopTimer()
		if !idle || s.Err() != nil {
			b.Fatalf("did not settle: %v", s.Err())
		}
		got, _ := s.Server().GetReplicaSet("default", "web")
		if got.Status.AvailableReplicas != n || got.Status.Replicas != n {
			b.Fatalf("status %+v, want %d available", got.Status, n)
		}
		steps += taken
		b.StartTimer()
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
}

// BenchmarkScaleUpKubelet1000: a ReplicaSet scaled 0 -> 1,000, to all available.
func BenchmarkScaleUpKubelet1000(b *testing.B) { benchScaleUp(b, 1000) }

// BenchmarkScaleUpKubelet10000: 0 -> 10,000; cost should grow about tenfold.
func BenchmarkScaleUpKubelet10000(b *testing.B) { benchScaleUp(b, 10000) }
