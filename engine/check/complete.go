package check

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// Incomplete returns a violation for every Deployment that is not paused,
// not being deleted, whose images are all healthy (healthy reports that for
// an image) and that has not completed its rollout: updated, total and
// available replicas all equal to spec.replicas and the latest generation
// observed. Call it at the end of a run in which every node is up.
//
// One stall is upstream's and is not reported: the Deployment's only active
// ReplicaSet is an old one (another template) that already has
// spec.replicas but a desired-replicas annotation that differs (a
// scale-down during a rollout wrote the replica count the Deployment had
// then, and the user scaled it to the new count since). isScalingEvent
// then holds at every sync, and scale leaves a target that already has the
// right size, annotation included, so the sync never reaches the rollout
// (the oracle's BEHAVIOR.md, deployment controller, "isScalingEvent" and
// "scale": with one active ReplicaSet, scale calls scaleReplicaSet only
// when its replicas differ).
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
		if scalingEventStall(srv, d, replicas) {
			continue
		}
		out = append(out, Violation{Step: step, Deployment: d.Namespace + "/" + d.Name, Invariant: "completion",
			Detail: fmt.Sprintf("rollout did not complete: replicas %d, updated %d, total %d, available %d, observedGeneration %d/%d",
				replicas, s.UpdatedReplicas, s.Replicas, s.AvailableReplicas, s.ObservedGeneration, d.Generation)})
	}
	return out
}

// scalingEventStall reports whether d is held in upstream's scaling-event
// loop (see Incomplete).
func scalingEventStall(srv *apiserver.Server, d *appsv1.Deployment, replicas int32) bool {
	var owned []*appsv1.ReplicaSet
	for _, rs := range srv.ListReplicaSets(d.Namespace, nil) {
		if podutil.IsControlledBy(rs, d.UID) {
			owned = append(owned, rs)
		}
	}
	active := deployutil.FilterActive(owned)
	if len(active) != 1 || *active[0].Spec.Replicas != replicas || deployutil.EqualIgnoreHash(&active[0].Spec.Template, &d.Spec.Template) {
		return false
	}
	desired, ok := deployutil.DesiredReplicasFromAnnotation(active[0])
	return ok && desired >= 0 && desired != replicas
}

func imagesHealthy(d *appsv1.Deployment, healthy func(string) bool) bool {
	for _, c := range d.Spec.Template.Spec.Containers {
		if !healthy(c.Image) {
			return false
		}
	}
	return true
}
