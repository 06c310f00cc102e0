package apiserver

import (
	"maps"
	"reflect"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// podShare lets a created pod share its containers, labels and owner
// references with the pod created before it when they are equal, field for
// field: a ReplicaSet creates its pods from one template, and every pod
// holding its own copy of the same containers is most of a large cluster's
// memory. Stored objects are never changed in place, so sharing is safe;
// the comparison is exact (no nil-equals-empty or quantity-by-value rules:
// both maps are non-nil, and containers compare with reflect.DeepEqual), so
// the stored pod is the one that would have been stored without sharing.
type podShare struct {
	containers []corev1.Container
	labels     map[string]string
	owners     []metav1.OwnerReference
}

// copyForCreate returns the server's copy of a pod about to be created: a
// deep copy of in, except that containers, labels and owner references
// equal to the last created pod's are not copied but taken from it at once
// (share would put them in place of the copies anyway), and the status is
// left empty (prepareCreate replaces it). The shared values are stored,
// hence already defaulted, and defaulting only fills unset fields, so the
// create's defaulting writes nothing into them; in equals them, so the
// defaulted copy would have equalled them too.
func (ps *podShare) copyForCreate(in *corev1.Pod) *corev1.Pod {
	tmp := *in
	tmp.Status = corev1.PodStatus{}
	shareContainers := in.Spec.Containers != nil && ps.containers != nil && reflect.DeepEqual(in.Spec.Containers, ps.containers)
	if shareContainers {
		tmp.Spec.Containers = nil
	}
	shareLabels := in.Labels != nil && ps.labels != nil && maps.Equal(in.Labels, ps.labels)
	if shareLabels {
		tmp.Labels = nil
	}
	shareOwners := in.OwnerReferences != nil && ps.owners != nil && slices.EqualFunc(in.OwnerReferences, ps.owners, podutil.SameOwnerRef)
	if shareOwners {
		tmp.OwnerReferences = nil
	}
	out := tmp.DeepCopy()
	if shareContainers {
		out.Spec.Containers = ps.containers
	}
	if shareLabels {
		out.Labels = ps.labels
	}
	if shareOwners {
		out.OwnerReferences = ps.owners
	}
	return out
}

// remember makes p's containers, labels and owner references the ones the
// next created pod shares when equal (p is stored).
func (ps *podShare) remember(p *corev1.Pod) {
	ps.containers, ps.labels, ps.owners = p.Spec.Containers, p.Labels, p.OwnerReferences
}

// share replaces p's containers, labels and owner references by the last
// created pod's when they are equal, and remembers p's otherwise. p is the
// server's own copy, about to be stored.
func (ps *podShare) share(p *corev1.Pod) {
	if c := p.Spec.Containers; c != nil && ps.containers != nil && (sameSlice(c, ps.containers) || reflect.DeepEqual(c, ps.containers)) {
		p.Spec.Containers = ps.containers
	} else {
		ps.containers = c
	}
	if l := p.Labels; l != nil && ps.labels != nil && (sameStringMap(l, ps.labels) || maps.Equal(l, ps.labels)) {
		p.Labels = ps.labels
	} else {
		ps.labels = l
	}
	if o := p.OwnerReferences; o != nil && ps.owners != nil && (sameSlice(o, ps.owners) || slices.EqualFunc(o, ps.owners, podutil.SameOwnerRef)) {
		p.OwnerReferences = ps.owners
	} else {
		ps.owners = o
	}
}
