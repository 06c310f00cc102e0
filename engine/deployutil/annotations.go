package deployutil

import (
	"fmt"
	"math"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
)

// Annotation keys the Deployment controller reads and writes.
const (
	// RevisionAnnotation holds the revision number of a Deployment and of each
	// of its ReplicaSets.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation is the comma-separated list of revisions a
	// ReplicaSet held before it was rolled back to (oldest first).
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's spec.replicas at the time
	// the ReplicaSet was last scaled by the controller.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation is spec.replicas + maxSurge at the time the
	// ReplicaSet was last scaled; proportional scaling divides by it.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
	// RollbackToAnnotation is the deprecated rollback request annotation.
	RollbackToAnnotation = "deprecated.deployment.rollback.to"
	// LastAppliedConfigAnnotation is kubectl's last-applied-configuration.
	LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// DefaultPodTemplateHashLabel is the label that tells ReplicaSets of one
	// Deployment apart; template equality ignores it.
	DefaultPodTemplateHashLabel = "pod-template-hash"
)

// RevisionHistoryLimitChars is the length cap, in characters, of the
// revision-history annotation the controller writes.
const RevisionHistoryLimitChars = 2000

// skipCopyAnnotation reports whether key is never copied from a Deployment to
// its ReplicaSet (nor back on rollback).
func skipCopyAnnotation(key string) bool {
	switch key {
	case LastAppliedConfigAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, RollbackToAnnotation:
		return true
	}
	return false
}

// ParseAnnotationInt32 parses a replica-count annotation value the way the
// controller does: unsigned base-10 digits only, at most 2^31-1.
//
// It returns (value, true, nil) for a valid value and (0, false, err) for an
// invalid one ("+5", " 5", "-1", "" and "2147483648" are all invalid).
func ParseAnnotationInt32(value string) (int32, bool, error) {
	u, err := strconv.ParseUint(value, 10, 32)
	if err != nil {
		return 0, false, fmt.Errorf("%w: %q: %v", ErrInvalidAnnotation, value, err)
	}
	if u > math.MaxInt32 {
		return 0, false, fmt.Errorf("%w: %q is larger than %d", ErrInvalidAnnotation, value, math.MaxInt32)
	}
	return int32(u), true, nil
}

// AnnotationInt32 reads annotation key of rs as a non-negative int32. A
// missing annotation is (0, false, nil); an invalid one is (0, false, err).
func AnnotationInt32(rs *appsv1.ReplicaSet, key string) (int32, bool, error) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false, nil
	}
	return ParseAnnotationInt32(v)
}

// DesiredReplicasFromAnnotation returns the desired-replicas annotation of rs;
// ok is false when it is missing or invalid.
func DesiredReplicasFromAnnotation(rs *appsv1.ReplicaSet) (int32, bool) {
	v, ok, err := AnnotationInt32(rs, DesiredReplicasAnnotation)
	return v, ok && err == nil
}

// MaxReplicasFromAnnotation returns the max-replicas annotation of rs; ok is
// false when it is missing or invalid.
func MaxReplicasFromAnnotation(rs *appsv1.ReplicaSet) (int32, bool) {
	v, ok, err := AnnotationInt32(rs, MaxReplicasAnnotation)
	return v, ok && err == nil
}

// SetReplicasAnnotations sets the desired-replicas and max-replicas
// annotations of rs (creating the map if needed) and reports whether either
// changed.
func SetReplicasAnnotations(rs *appsv1.ReplicaSet, desiredReplicas, maxReplicas int32) bool {
	if rs.Annotations == nil {
		rs.Annotations = make(map[string]string, 2)
	}
	changed := false
	if want := strconv.FormatInt(int64(desiredReplicas), 10); rs.Annotations[DesiredReplicasAnnotation] != want {
		rs.Annotations[DesiredReplicasAnnotation] = want
		changed = true
	}
	if want := strconv.FormatInt(int64(maxReplicas), 10); rs.Annotations[MaxReplicasAnnotation] != want {
		rs.Annotations[MaxReplicasAnnotation] = want
		changed = true
	}
	return changed
}

// ReplicasAnnotationsNeedUpdate reports whether the desired-replicas or
// max-replicas annotation of rs differs from the given values (a missing
// annotation differs from every value).
func ReplicasAnnotationsNeedUpdate(rs *appsv1.ReplicaSet, desiredReplicas, maxReplicas int32) bool {
	if rs.Annotations == nil {
		return true
	}
	return rs.Annotations[DesiredReplicasAnnotation] != strconv.FormatInt(int64(desiredReplicas), 10) ||
		rs.Annotations[MaxReplicasAnnotation] != strconv.FormatInt(int64(maxReplicas), 10)
}
