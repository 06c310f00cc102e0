package session

import (
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// Sample is the chart data after one step: the size of every ReplicaSet and
// the Deployments' available pods, as the API server has them.
type Sample struct {
	Step int           `json:"step"`
	At   time.Duration `json:"atNs"`
	// ReplicaSets in name order.
	ReplicaSets []RSPoint `json:"replicaSets"`
	// Deployments in name order.
	Deployments []DeploymentPoint `json:"deployments"`
}

// RSPoint is one ReplicaSet in a sample.
type RSPoint struct {
	// Namespace is the ReplicaSet's namespace, "" for "default" (most
	// samples, kept short).
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Owner is the controlling Deployment's name, "" for none.
	Owner     string `json:"owner,omitempty"`
	Desired   int32  `json:"desired"`
	Current   int32  `json:"current"`
	Ready     int32  `json:"ready"`
	Available int32  `json:"available"`
}

// DeploymentPoint is one Deployment in a sample.
type DeploymentPoint struct {
	// Namespace is as RSPoint's.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Replicas  int32  `json:"replicas"`
	Updated   int32  `json:"updated"`
	Available int32  `json:"available"`
}

// sample takes the chart sample of sm after the step info (nil at set-up).
func sample(sm *sim.Sim, info *sim.StepInfo) Sample {
	smp := Sample{At: sm.Clock().Elapsed()}
	if info != nil {
		smp.Step = info.Step
	}
	for _, rs := range sm.Server().ListReplicaSets("", nil) {
		p := RSPoint{Namespace: sampleNamespace(rs.Namespace), Name: rs.Name, Current: rs.Status.Replicas, Ready: rs.Status.ReadyReplicas, Available: rs.Status.AvailableReplicas}
		if rs.Spec.Replicas != nil {
			p.Desired = *rs.Spec.Replicas
		}
		if ref := metav1.GetControllerOfNoCopy(rs); ref != nil {
			p.Owner = ref.Name
		}
		smp.ReplicaSets = append(smp.ReplicaSets, p)
	}
	for _, d := range sm.Server().ListDeployments("", nil) {
		p := DeploymentPoint{Namespace: sampleNamespace(d.Namespace), Name: d.Name, Updated: d.Status.UpdatedReplicas, Available: d.Status.AvailableReplicas}
		if d.Spec.Replicas != nil {
			p.Replicas = *d.Spec.Replicas
		}
		smp.Deployments = append(smp.Deployments, p)
	}
	return smp
}

// shareUnchanged returns smp with its point slices replaced by prev's when
// they hold the same points, so that the samples of the many steps that
// change no ReplicaSet or Deployment status share one copy. Samples are
// read-only once stored.
func shareUnchanged(prev, smp Sample) Sample {
	if slices.Equal(prev.ReplicaSets, smp.ReplicaSets) {
		smp.ReplicaSets = prev.ReplicaSets
	}
	if slices.Equal(prev.Deployments, smp.Deployments) {
		smp.Deployments = prev.Deployments
	}
	return smp
}

// sampleNamespace is a namespace as samples carry it: "" for "default".
func sampleNamespace(ns string) string {
	if ns == metav1.NamespaceDefault {
		return ""
	}
	return ns
}
