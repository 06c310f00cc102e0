package kubelet

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

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
// topology label). As in the scheduler's InterPodAffinity filter, the
// incoming pod's terms are checked against the pods on a node, then theirs
// against it; a pod being deleted counts until it is gone, a pod that has
// finished (Succeeded, Failed) does not; matchLabelKeys and
// mismatchLabelKeys were merged into the selector (key In / NotIn the
// owner's value) by the API server when the pod was created
// (podutil.MergeAffinityLabelKeys), so a later relabel of the owner does
// not change what its terms select.

// hostnameTopology is the node label every simulated node carries.
const hostnameTopology = "kubernetes.io/hostname"

// exclusion says why a node is excluded for a pod, in the order the filter
// checks (the first found is the reason given).
type exclusion uint8

const (
	notExcluded exclusion = iota
	// byOwnRule: the incoming pod's term selects a pod on the node.
	byOwnRule
	// byExistingRule: a term of a pod on the node selects the incoming pod.
	byExistingRule
)

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

// termSelects reports whether term, of pod owner, selects target: target's
// labels match the term's selector (a term without one selects nothing;
// the API server merged the owner's matchLabelKeys and mismatchLabelKeys
// into it when the owner was created), and its namespace is one the term
// applies to.
func termSelects(term corev1.PodAffinityTerm, owner, target *corev1.Pod) bool {
	if term.LabelSelector == nil || !termNamespace(term, owner.Namespace, target.Namespace) {
		return false
	}
	sel, err := metav1.LabelSelectorAsSelector(term.LabelSelector)
	return err == nil && sel.Matches(labels.Set(target.Labels))
}

// termNamespace reports whether a term of a pod in namespace ns applies to
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

// excludes says whether pod may not share a node with other, and why.
func excludes(pod, other *corev1.Pod) exclusion {
	if selectsAny(hostnameAntiAffinity(pod), pod, other) {
		return byOwnRule
	}
	if selectsAny(hostnameAntiAffinity(other), other, pod) {
		return byExistingRule
	}
	return notExcluded
}

// exclusions returns the nodes anti-affinity excludes pod from, and why,
// in one pass over the pods bound to nodes. Unless pod has such a rule
// itself (anti), only pods that have one are looked at.
func (k *Kubelet) exclusions(pod *corev1.Pod, anti bool) map[string]exclusion {
	out := map[string]exclusion{}
	k.pods.Range(func(key string, p *podState) bool {
		if p.node == "" || p.uid == pod.UID || (!anti && !p.anti) || out[p.node] == byOwnRule {
			return true
		}
		other, ok := k.storedPod(p)
		if !ok || other.Status.Phase == corev1.PodSucceeded || other.Status.Phase == corev1.PodFailed {
			return true
		}
		if r := excludes(pod, other); r != notExcluded && (out[p.node] == notExcluded || r < out[p.node]) {
			out[p.node] = r
		}
		return true
	})
	return out
}

// unschedulableMessage is the PodScheduled condition's message when every
// node is excluded or not ready, in the scheduler's words: the count of
// nodes for each reason, sorted, then what preemption found (pods of equal
// priority are no victims; a node that is not ready, tainted unreachable,
// is not one preemption helps with).
func unschedulableMessage(nodes, ownRule, existingRule, notReady int) string {
	var reasons, preemption []string
	add := func(to *[]string, n int, why string) {
		if n > 0 {
			*to = append(*to, fmt.Sprintf("%d %s", n, why))
		}
	}
	add(&reasons, ownRule, "node(s) didn't match pod anti-affinity rules")
	add(&reasons, existingRule, "node(s) didn't satisfy existing pods anti-affinity rules")
	add(&reasons, notReady, "node(s) had untolerated taint {node.kubernetes.io/unreachable: }")
	add(&preemption, ownRule+existingRule, "No preemption victims found for incoming pod")
	add(&preemption, notReady, "Preemption is not helpful for scheduling")
	sort.Strings(reasons)
	sort.Strings(preemption)
	return fmt.Sprintf("0/%d nodes are available: %s. preemption: 0/%d nodes are available: %s.",
		nodes, strings.Join(reasons, ", "), nodes, strings.Join(preemption, ", "))
}

// retryAfterRelabel is the scheduler's answer to a label change of a pod
// bound to a node (prev, the version the change replaced, and pod): the
// pending pods that anti-affinity kept off every node try again when one
// of their own terms selected the pod before the change and none selects
// it after, as the scheduler's queueing hint for that event moves them
// back to its active queue (and skips the others). The pod may be being
// deleted: it counts with its labels until it is gone.
func (k *Kubelet) retryAfterRelabel(prev, pod *corev1.Pod) {
	if prev.Spec.NodeName == "" || pod.Spec.NodeName == "" || maps.Equal(prev.Labels, pod.Labels) {
		return
	}
	k.retryWaitingForPods(func(waiting *corev1.Pod) bool {
		terms := hostnameAntiAffinity(waiting)
		return selectsAny(terms, waiting, prev) && !selectsAny(terms, waiting, pod)
	})
}

// selectsAny reports whether one of terms, of pod owner, selects target.
func selectsAny(terms []corev1.PodAffinityTerm, owner, target *corev1.Pod) bool {
	for _, t := range terms {
		if termSelects(t, owner, target) {
			return true
		}
	}
	return false
}
