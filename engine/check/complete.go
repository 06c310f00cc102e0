package check

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// Incomplete returns a violation for every Deployment that is not paused,
// not being deleted, whose images are all healthy (healthy reports that for
// an image) and that has not completed its rollout: updated, total and
// available replicas all equal to spec.replicas and the latest generation
// observed. Call it at the end of a run in which every node is up.
func Incomplete(srv *apiserver.Server, step int, healthy func(image string) bool) []Violation {
	var out []Violation
	for _, d := range srv.ListDeployments("", nil) {
		if d.Spec.Paused || d.DeletionTimestamp != nil || !imagesHealthy(d, healthy) {
			continue
		}
		replicas := int32(1)
		if d.Spec.Replicas != nil {
			replicas = *d.Spec.Replicas
		}
		s := d.Status
		if s.UpdatedReplicas == replicas && s.Replicas == replicas && s.AvailableReplicas == replicas && s.ObservedGeneration >= d.Generation {
			continue
		}
		out = append(out, Violation{Step: step, Deployment: d.Namespace + "/" + d.Name, Invariant: "completion",
			Detail: fmt.Sprintf("rollout did not complete: replicas %d, updated %d, total %d, available %d, observedGeneration %d/%d",
				replicas, s.UpdatedReplicas, s.Replicas, s.AvailableReplicas, s.ObservedGeneration, d.Generation)})
	}
	return out
}

func imagesHealthy(d *appsv1.Deployment, healthy func(string) bool) bool {
	for _, c := range d.Spec.Template.Spec.Containers {
		if !healthy(c.Image) {
			return false
		}
	}
	return true
}
