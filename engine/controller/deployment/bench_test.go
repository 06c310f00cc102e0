package deployment

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

// BenchmarkRollingUpdateSyncs measures a whole 1,000-replica rolling update
// (25%/25%) from template change to completion, with ReplicaSet status
// simulated directly (every ReplicaSet reports all its replicas available
// after each sync). One iteration is one full rollout; the syncs it took are
// reported as syncs/op.
func BenchmarkRollingUpdateSyncs(b *testing.B) {
	var syncs int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f := newFixture(b)
		f.create(newDeployment("web", 1000, "25%", "25%", "nginx:1"))
		f.drain()
		f.settle()
		f.drain()
		f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
		b.StartTimer()
		for round := 0; round < 100; round++ {
			syncs += f.drain()
			f.settle()
			d := f.deployment("web")
			if d.Status.UpdatedReplicas == 1000 && d.Status.Replicas == 1000 && d.Status.AvailableReplicas == 1000 {
				break
			}
		}
		b.StopTimer()
		d := f.deployment("web")
		if d.Status.UpdatedReplicas != 1000 || d.Status.Replicas != 1000 {
			b.Fatalf("rollout did not finish: %+v", d.Status)
		}
	}
	b.ReportMetric(float64(syncs)/float64(b.N), "syncs/op")
}
