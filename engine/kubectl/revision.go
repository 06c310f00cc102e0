package kubectl

import (
	"sort"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Annotation keys kubectl reads.
const (
	revisionAnnotation    = "deployment.kubernetes.io/revision"
	changeCauseAnnotation = "kubernetes.io/change-cause"
	lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	podTemplateHashLabel  = appsv1.DefaultDeploymentUniqueLabelKey
)

// rollbackSkipAnnotations are the Deployment annotations undo keeps, never
// taking the ReplicaSet's values for them.
var rollbackSkipAnnotations = map[string]bool{
	lastAppliedAnnotation:                       true,
	revisionAnnotation:                          true,
	"deployment.kubernetes.io/revision-history": true,
	"deployment.kubernetes.io/desired-replicas": true,
	"deployment.kubernetes.io/max-replicas":     true,
	"deprecated.deployment.rollback.to":         true,
}

// revisionOf parses an RS's revision annotation; ok is false when it is
// missing or not a number.
func revisionOf(rs *appsv1.ReplicaSet) (int64, bool) {
	v, err := strconv.ParseInt(rs.Annotations[revisionAnnotation], 10, 64)
	return v, err == nil
}

// equalIgnoreHash compares two pod templates ignoring the pod-template-hash
// label.
func equalIgnoreHash(a, b *corev1.PodTemplateSpec) bool {
	a, b = a.DeepCopy(), b.DeepCopy()
	delete(a.Labels, podTemplateHashLabel)
	delete(b.Labels, podTemplateHashLabel)
	if len(a.Labels) == 0 {
		a.Labels = nil
	}
	if len(b.Labels) == 0 {
		b.Labels = nil
	}
	return apiequality.Semantic.DeepEqual(a, b)
}

// ownedBy returns the ReplicaSets whose controller reference is d.
func ownedBy(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	var out []*appsv1.ReplicaSet
	for _, rs := range rss {
		if ref := metav1.GetControllerOf(rs); ref != nil && ref.UID == d.UID && rs.Namespace == d.Namespace {
			out = append(out, rs)
		}
	}
	return out
}

// splitReplicaSets finds d's new ReplicaSet (the oldest one whose template
// matches d's) and its old ones (every other one, scaled to 0 or not), both
// among the ReplicaSets d controls, oldest first. Ties in age are broken by
// name.
func splitReplicaSets(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (newRS *appsv1.ReplicaSet, old []*appsv1.ReplicaSet) {
	owned := ownedBy(d, rss)
	sort.SliceStable(owned, func(i, j int) bool {
		a, b := owned[i].CreationTimestamp, owned[j].CreationTimestamp
		if !a.Equal(&b) {
			return a.Before(&b)
		}
		return owned[i].Name < owned[j].Name
	})
	for _, rs := range owned {
		if equalIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			newRS = rs
			break
		}
	}
	for _, rs := range owned {
		if rs != newRS {
			old = append(old, rs)
		}
	}
	return newRS, old
}
