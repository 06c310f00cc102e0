package kubelet

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Required pod anti-affinity on the node topology: the one scheduling rule
// of a pod spec the model's scheduler applies. Production Deployments use
// it to keep their replicas on different nodes, and it decides whether a
// rolling update can go on: with as many replicas as nodes and
// maxUnavailable 0, the surge pod finds no node and stays Pending, and the
// rollout stalls until its progress deadline. Only terms whose topologyKey
// is kubernetes.io/hostname are applied (the simulated nodes carry no other
// topology label); like the scheduler's InterPodAffinity filter, a term of
// either pod counts (a pod may not land next to one whose rule excludes it),
// and a pod being deleted counts until it is gone.

// hostnameTopology is the node label every simulated node carries.
const hostnameTopology = "kubernetes.io/hostname"

// hostnameAntiAffinity returns pod's required anti-affinity terms on the
// node topology.
func hostnameAntiAffinity(pod *corev1.Pod) []corev1.PodAffinityTerm {
	a := pod.Spec.Affinity
	if a == nil || a.PodAntiAffinity == nil {
		return nil
	}
	var out []corev1.PodAffinityTerm
	for _, t := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		if t.TopologyKey == hostnameTopology {
			out = append(out, t)
		}
	}
	return out
}

// termSelects reports whether term, of a pod in namespace ns, selects
// target: target's labels match the term's selector (a term without one
// selects nothing) and its namespace is one the term applies to.
func termSelects(term corev1.PodAffinityTerm, ns string, target *corev1.Pod) bool {
	if term.LabelSelector == nil || !termNamespace(term, ns, target.Namespace) {
		return false
	}
	sel, err := metav1.LabelSelectorAsSelector(term.LabelSelector)
	return err == nil && sel.Matches(labels.Set(target.Labels))
}

// termNamespace reports whether term, of a pod in namespace ns, applies to
// namespace target: one it names or its namespace selector selects, or,
// when it has neither, ns itself. A namespace's only label here is the one
// every namespace carries (kubernetes.io/metadata.name); an empty selector
// selects every namespace.
func termNamespace(term corev1.PodAffinityTerm, ns, target string) bool {
	if len(term.Namespaces) == 0 && term.NamespaceSelector == nil {
		return target == ns
	}
	if slices.Contains(term.Namespaces, target) {
		return true
	}
	if term.NamespaceSelector == nil {
		return false
	}
	sel, err := metav1.LabelSelectorAsSelector(term.NamespaceSelector)
	return err == nil && sel.Matches(labels.Set{corev1.LabelMetadataName: target})
}

// excludes reports whether pod and other may not share a node: a required
// anti-affinity term on the node topology of either selects the other.
func excludes(pod, other *corev1.Pod) bool {
	for _, t := range hostnameAntiAffinity(pod) {
		if termSelects(t, pod.Namespace, other) {
			return true
		}
	}
	for _, t := range hostnameAntiAffinity(other) {
		if termSelects(t, other.Namespace, pod) {
			return true
		}
	}
	return false
}

// excludedFrom reports whether pod may not go to node: a pod bound there
// (other than pod itself) and it exclude each other.
func (k *Kubelet) excludedFrom(node string, pod *corev1.Pod) bool {
	found := false
	k.pods.Range(func(key string, p *podState) bool {
		if p.node != node || p.uid == pod.UID {
			return true
		}
		if other, ok := k.storedPod(p); ok && excludes(pod, other) {
			found = true
			return false
		}
		return true
	})
	return found
}

// antiAffinityMessage is the PodScheduled condition's message when blocked
// of the nodes (all of them) excluded the pod, and the rest were not ready.
func antiAffinityMessage(nodes, blocked int) string {
	msg := fmt.Sprintf("0/%d nodes are available: %d node(s) didn't match pod anti-affinity rules", nodes, blocked)
	if rest := nodes - blocked; rest > 0 {
		msg += fmt.Sprintf(", %d node(s) were not ready", rest)
	}
	return msg + "."
}
