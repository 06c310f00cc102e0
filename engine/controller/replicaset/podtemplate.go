package replicaset

import (
	"errors"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// ErrNoLabels is returned, before any request, for a template without labels.
var ErrNoLabels = errors.New("unable to create pods, no labels")

// replicaSetGVK is the kind in the controller references the controller
// writes.
var replicaSetGVK = appsv1.SchemeGroupVersion.WithKind("ReplicaSet")

// podFromTemplate builds the pod the controller creates for rs: labels,
// annotations, finalizers and spec from the template, generateName prefix
// (podNamePrefix(rs.Name), computed once per batch by the caller), and one
// controller reference to rs with blockOwnerDeletion.
//
// The pod is only a request body: the API server copies what it stores
// (apiserver contract) and leaves the body as it was, so a scale-up sends
// the same body for every create of its batch. It shares the template's
// maps, slices and spec instead of copying them; rs is the sync's own
// copy, and neither side changes them.
func podFromTemplate(rs *appsv1.ReplicaSet, prefix string) (*corev1.Pod, error) {
	t := &rs.Spec.Template
	if len(t.Labels) == 0 {
		return nil, ErrNoLabels
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       rs.Namespace,
			GenerateName:    prefix,
			Labels:          t.Labels,
			Annotations:     t.Annotations,
			OwnerReferences: []metav1.OwnerReference{*podutil.NewControllerRef(rs, replicaSetGVK)},
		},
		Spec: t.Spec,
	}
	if len(t.Finalizers) > 0 {
		pod.Finalizers = t.Finalizers
	}
	return pod, nil
}

// podNamePrefix is "<name>-", or name itself when that prefix would not be
// a valid generateName (checked as a DNS subdomain with its trailing dash
// masked, as the API server does).
//
// Example: "web-7c5d" gives "web-7c5d-".
func podNamePrefix(name string) string {
	prefix := name + "-"
	masked := prefix[:len(prefix)-1] + "a"
	if len(validation.IsDNS1123Subdomain(masked)) != 0 {
		return name
	}
	return prefix
}
