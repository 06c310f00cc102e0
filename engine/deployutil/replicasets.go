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
func EqualIgnoreHash(a, b *corev1.PodTemplateSpec) bool {
	ac, bc := a.DeepCopy(), b.DeepCopy()
	delete(ac.Labels, DefaultPodTemplateHashLabel)
	delete(bc.Labels, DefaultPodTemplateHashLabel)
	return apiequality.Semantic.DeepEqual(ac, bc)
}

// SortByCreation sorts rss in place oldest first (name breaks ties; a zero
// creation time is earliest).
func SortByCreation(rss []*appsv1.ReplicaSet) { sort.Sort(byCreation(rss)) }

// FindNewReplicaSet returns the ReplicaSet whose template equals d's
// template ignoring the pod-template-hash label, or nil. rsList is sorted in
// place oldest first, so when several match, the oldest one is the new one.
func FindNewReplicaSet(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	SortByCreation(rsList)
	for _, rs := range rsList {
		if EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
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
	newRS := FindNewReplicaSet(d, rsList)
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
