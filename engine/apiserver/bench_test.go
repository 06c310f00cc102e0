package apiserver

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func BenchmarkCreatePod(b *testing.B) {
	e := newTestEnv()
	p := testPod("default", "", map[string]string{"app": "web"})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Name = "web-" + strconv.Itoa(i)
		if _, err := e.srv.CreatePod("bench", p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdatePodStatus(b *testing.B) {
	e := newTestEnv()
	const n = 10000
	for i := 0; i < n; i++ {
		if _, err := e.srv.CreatePod("bench", testPod("default", "web-"+strconv.Itoa(i), nil)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		cur, _ := e.srv.GetPod("default", "web-"+strconv.Itoa(i%n))
		p := cur.DeepCopy()
		if p.Status.Phase == corev1.PodRunning {
			p.Status.Phase = corev1.PodPending
		} else {
			p.Status.Phase = corev1.PodRunning
		}
		if _, err := e.srv.UpdatePodStatus("kubelet", p); err != nil {
			b.Fatal(err)
		}
	}
}
