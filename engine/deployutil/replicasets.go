package deployutil

import (
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
)

// EqualIgnoreHash reports whether two pod templates are semantically equal
// (apimachinery's Semantic equality: nil and empty maps and slices are equal,
// quantities compare by value) after removing the pod-template-hash label from
// both. The inputs are not modified. Templates are compared as stored, i.e.
// after API-server defaulting.
//
// It compares the labels itself and the rest on shallow copies without
// labels, so nothing is deep-copied.
func EqualIgnoreHash(a, b *corev1.PodTemplateSpec) bool {
	if a == b {
		return true
	}
	if !labelsEqualIgnoringHash(a.Labels, b.Labels) {
		return false
	}
	ac, bc := *a, *b
	ac.Labels, bc.Labels = nil, nil
	return apiequality.Semantic.DeepEqual(&ac, &bc)
}

// labelsEqualIgnoringHash reports whether a and b hold the same pairs once
// the pod-template-hash label is left out of both (nil and empty alike, as
// the semantic comparison has it).
func labelsEqualIgnoringHash(a, b map[string]string) bool {
	n := 0
	for k, v := range a {
		if k == DefaultPodTemplateHashLabel {
			continue
		}
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
		n++
	}
	_, bHash := b[DefaultPodTemplateHashLabel]
	if bHash {
		return len(b)-1 == n
	}
	return len(b) == n
}

// SortByCreation sorts rss in place oldest first (name breaks ties; a zero
// creation time is earliest).
func SortByCreation(rss []*appsv1.ReplicaSet) { sort.Sort(byCreation(rss)) }

// FindNewReplicaSet returns the ReplicaSet whose template equals d's
// template ignoring the pod-template-hash label, or nil. rsList is sorted in
// place oldest first, so when several match, the oldest one is the new one.
func FindNewReplicaSet(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	return FindNewReplicaSetMatching(rsList, func(rs *appsv1.ReplicaSet) bool {
		return EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template)
	})
}

// FindNewReplicaSetMatching is FindNewReplicaSet with the template
// comparison supplied by the caller: matches(rs) must answer
// EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) (a caller may
// remember the answers). rsList is sorted in place oldest first.
func FindNewReplicaSetMatching(rsList []*appsv1.ReplicaSet, matches func(rs *appsv1.ReplicaSet) bool) *appsv1.ReplicaSet {
	SortByCreation(rsList)
	for _, rs := range rsList {
		if matches(rs) {
			return rs
		}
	}
	return nil
}

// FindOldReplicaSets returns every ReplicaSet of rsList except the new one
// (all), and the subset with spec.replicas != 0 (required), both in
// creation order: like upstream it first calls FindNewReplicaSet, which sorts
// rsList in place. The new ReplicaSet is recognised by UID, so every
// ReplicaSet must carry one.
func FindOldReplicaSets(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (required, all []*appsv1.ReplicaSet) {
	return FindOldReplicaSetsMatching(rsList, func(rs *appsv1.ReplicaSet) bool {
		return EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template)
	})
}

// FindOldReplicaSetsMatching is FindOldReplicaSets with the template
// comparison supplied by the caller, as for FindNewReplicaSetMatching.
func FindOldReplicaSetsMatching(rsList []*appsv1.ReplicaSet, matches func(rs *appsv1.ReplicaSet) bool) (required, all []*appsv1.ReplicaSet) {
	newRS := FindNewReplicaSetMatching(rsList, matches)
	for _, rs := range rsList {
		if newRS != nil && rs.UID == newRS.UID {
			continue
		}
		all = append(all, rs)
		if rsReplicas(rs) != 0 {
			required = append(required, rs)
		}
	}
	return required, all
}
