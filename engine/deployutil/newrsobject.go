package deployutil

import (
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// deploymentGVK is the kind a ReplicaSet's controller reference names.
var deploymentGVK = appsv1.SchemeGroupVersion.WithKind("Deployment")

// NewReplicaSet is the ReplicaSet of d's current template whose
// pod-template-hash is hash, as the Deployment controller creates it
// before sizing it: named d.Name-hash, the hash added to the template's
// labels (which are also the ReplicaSet's) and to the selector, controlled
// by d, with d's minReadySeconds, 0 replicas and no annotations. The
// controller sizes and annotates it (NewRSNewReplicas,
// SetNewReplicaSetAnnotations); pasted cluster output fills in a running
// one the same way (scenario's fillRunning).
func NewReplicaSet(d *appsv1.Deployment, hash string) *appsv1.ReplicaSet {
	template := d.Spec.Template.DeepCopy()
	template.Labels = withLabel(d.Spec.Template.Labels, DefaultPodTemplateHashLabel, hash)
	selector := d.Spec.Selector.DeepCopy()
	if selector == nil {
		selector = &metav1.LabelSelector{}
	}
	selector.MatchLabels = withLabel(selector.MatchLabels, DefaultPodTemplateHashLabel, hash)
	zero := int32(0)
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:            GenerateReplicaSetName(d.Name, hash),
			Namespace:       d.Namespace,
			OwnerReferences: []metav1.OwnerReference{*podutil.NewControllerRef(d, deploymentGVK)},
			Labels:          template.Labels,
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas:        &zero,
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        selector,
			Template:        *template,
		},
	}
}

// withLabel returns a copy of m with key=value added.
func withLabel(m map[string]string, key, value string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	out[key] = value
	return out
}
