package deployutil

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// benchRSs returns n active ReplicaSets annotated for a 100-replica
// deployment, oldest first.
func benchRSs(n int) []*appsv1.ReplicaSet {
	out := make([]*appsv1.ReplicaSet, n)
	for i := range out {
		rs := sizedRS(fmt.Sprintf("web-%d", i), int32(10+i%7))
		rs.CreationTimestamp = metav1.NewTime(time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC))
		rs.Annotations = map[string]string{DesiredReplicasAnnotation: "100", MaxReplicasAnnotation: "125"}
		out[i] = rs
	}
	return out
}

func BenchmarkScaleProportional(b *testing.B) {
	d := newDeployment(b, 180, "RollingUpdate", json.RawMessage(`"25%"`), json.RawMessage(`"25%"`))
	rss := benchRSs(10)
	newRS, old := rss[len(rss)-1], rss[:len(rss)-1]
	b.ReportAllocs()
	for b.Loop() {
		p := Scale(d, newRS, old)
		if p.Math.Path != ScaleProportional {
			b.Fatal(p.Math.Path)
		}
	}
}

func BenchmarkNewRSNewReplicas(b *testing.B) {
	d := newDeployment(b, 100, "RollingUpdate", json.RawMessage(`"25%"`), json.RawMessage(`"25%"`))
	rss := benchRSs(10)
	newRS := rss[len(rss)-1]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewRSNewReplicas(d, rss, newRS); err != nil {
			b.Fatal(err)
		}
	}
}
