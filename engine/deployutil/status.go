package deployutil

import (
	"math"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// CalculateStatus computes the deployment status from its ReplicaSets.
// allRSs holds the old ReplicaSets and newRS (nil entries are skipped).
//
//   - replicas, ready and available are sums of the ReplicaSet statuses;
//     updated is newRS's status.replicas (0 without a new ReplicaSet);
//   - unavailable is max(0, Σspec.replicas - available);
//   - terminatingReplicas follows TerminatingReplicas (nil rules included);
//   - observedGeneration is d.generation, collisionCount is carried over,
//     the conditions are copied;
//   - Available is set True/MinimumReplicasAvailable when available >=
//     d.replicas - MaxUnavailable(d), else False/MinimumReplicasUnavailable,
//     through SetDeploymentCondition with times at now.
//
// Worked example (replicas 10, surge 3, unavailable 2): old spec 8 (8/8
// ready/available), new spec 5 (5 replicas, 2 available): replicas 13,
// updated 5, available 10, unavailable 13-10 = 3, Available True (10 >= 8).
func CalculateStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment, now time.Time) appsv1.DeploymentStatus {
	available := AvailableReplicas(allRSs)
	unavailable := max(SpecReplicas(allRSs)-available, 0)
	st := appsv1.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            StatusReplicas(allRSs),
		UpdatedReplicas:     StatusReplicas([]*appsv1.ReplicaSet{newRS}),
		ReadyReplicas:       ReadyReplicas(allRSs),
		AvailableReplicas:   available,
		UnavailableReplicas: unavailable,
		TerminatingReplicas: TerminatingReplicas(allRSs),
	}
	if cc := d.Status.CollisionCount; cc != nil {
		v := *cc // carried over by value: the result shares nothing with d
		st.CollisionCount = &v
	}
	if len(d.Status.Conditions) > 0 {
		st.Conditions = append([]appsv1.DeploymentCondition(nil), d.Status.Conditions...)
	}
	if available >= replicasOf(d)-MaxUnavailable(d) {
		SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionTrue,
			ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", now))
	} else {
		SetDeploymentCondition(&st, NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionFalse,
			ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", now))
	}
	return st
}

// HasProgressDeadline reports whether d has a progress deadline: set and not
// MaxInt32.
func HasProgressDeadline(d *appsv1.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// HasRevisionHistoryLimit reports whether d limits its revision history: set
// and not MaxInt32.
func HasRevisionHistoryLimit(d *appsv1.Deployment) bool {
	return d.Spec.RevisionHistoryLimit != nil && *d.Spec.RevisionHistoryLimit != math.MaxInt32
}

// DeploymentComplete reports whether newStatus shows a finished rollout:
// updated == replicas == available == d.replicas and observedGeneration >=
// d.generation.
//
// Worked example: replicas 5, status 5 updated / 5 total / 4 available ->
// false (one pod not yet available).
func DeploymentComplete(d *appsv1.Deployment, newStatus *appsv1.DeploymentStatus) bool {
	r := replicasOf(d)
	return newStatus.UpdatedReplicas == r && newStatus.Replicas == r && newStatus.AvailableReplicas == r &&
		newStatus.ObservedGeneration >= d.Generation
}

// DeploymentProgressing reports whether newStatus shows progress over
// d.status: more updated replicas, fewer old replicas (replicas - updated),
// more ready replicas or more available replicas.
//
// Worked example: old 10 total / 4 updated, new 8 total / 4 updated: old
// replicas 6 -> 4 fell, so progressing.
func DeploymentProgressing(d *appsv1.Deployment, newStatus *appsv1.DeploymentStatus) bool {
	old := &d.Status
	return newStatus.UpdatedReplicas > old.UpdatedReplicas ||
		newStatus.Replicas-newStatus.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		newStatus.ReadyReplicas > old.ReadyReplicas ||
		newStatus.AvailableReplicas > old.AvailableReplicas
}

// DeploymentTimedOut reports whether the rollout recorded in newStatus has
// passed its progress deadline at now. False without a deadline or without
// a Progressing condition, false when its reason is NewReplicaSetAvailable,
// true when it is ProgressDeadlineExceeded; otherwise true when
// lastUpdateTime + deadline is strictly before now (exactly at the deadline is
// not timed out).
//
// Worked example: deadline 10s, lastUpdateTime 00:01:10, now 00:01:20 ->
// 00:01:20 is not before 00:01:20 -> false; 1ns later -> true.
func DeploymentTimedOut(d *appsv1.Deployment, newStatus *appsv1.DeploymentStatus, now time.Time) bool {
	if !HasProgressDeadline(d) {
		return false
	}
	c := GetDeploymentCondition(newStatus, appsv1.DeploymentProgressing)
	if c == nil {
		return false
	}
	switch c.Reason {
	case ReasonNewRSAvailable:
		return false
	case ReasonTimedOut:
		return true
	}
	deadline := time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second
	return c.LastUpdateTime.Add(deadline).Before(now)
}
