package kubelet

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// ErrUnknownNode is returned for a node name the model does not have.
var ErrUnknownNode = fmt.Errorf("unknown node")

// FailNode makes a node stop reporting. After NodeMonitorGracePeriod the
// node lifecycle controller turns its Ready condition Unknown and marks its
// pods NotReady; EvictionTimeout later (the pods' default toleration of the
// unreachable taint) it deletes them. Pods deleted while the node is down
// stay Terminating until it recovers.
//
// A simplification: the model's scheduler stops placing pods on the node
// at once, where upstream's would until the node is tainted.
func (k *Kubelet) FailNode(name string) error {
	n := k.nodes[name]
	if n == nil {
		return fmt.Errorf("%w %q", ErrUnknownNode, name)
	}
	if !n.ready {
		return nil
	}
	n.ready = false
	n.gen++
	k.emit(Transition{Actor: "kubelet", Node: name, What: "node-failed"})
	notReady := k.clock.Now().Add(k.cfg.NodeMonitorGracePeriod)
	k.schedule(notReady, actNodeNotReady, name, n.gen, nil)
	k.schedule(notReady.Add(k.cfg.EvictionTimeout), actNodeEvict, name, n.gen, nil)
	return nil
}

// RecoverNode brings a failed node back: terminating pods on it finish, its
// other pods become ready again, and pending pods can be scheduled.
func (k *Kubelet) RecoverNode(name string) error {
	n := k.nodes[name]
	if n == nil {
		return fmt.Errorf("%w %q", ErrUnknownNode, name)
	}
	if n.ready {
		return nil
	}
	marked := n.marked
	n.ready, n.marked = true, false
	n.gen++
	// Back before the grace period ran out, the node was never marked: its
	// Ready condition and its ready pods' never changed, and stay as they
	// are (no write).
	if marked {
		k.setNodeReady("kubelet", name, corev1.ConditionTrue, "KubeletReady")
	}
	k.emit(Transition{Actor: "kubelet", Node: name, What: "node-recovered"})
	for _, key := range k.sortedPodKeysOnNode(name) {
		p := k.writable(k.pods.At(key))
		pod, ok := k.freshPod(p)
		if !ok {
			continue
		}
		if pod.DeletionTimestamp != nil {
			k.podTerminating(p, pod)
			continue
		}
		if !marked && p.stage == stageReady {
			// Still ready, but the timers of its run that came due while
			// the node was down were lost: its probes' outcomes go on.
			k.scheduleProbeOutcome(p)
			continue
		}
		k.schedulePod(p, k.readyDelay(p), actStart)
	}
	pending := k.unschedulable
	k.unschedulable = nil
	for _, key := range pending {
		if p := k.pods.At(key); p != nil && p.node == "" {
			k.schedulePod(k.writable(p), 0, actBind)
		}
	}
	return nil
}

// setNodeReady writes the node's Ready condition as actor: the node
// lifecycle controller when the node stops reporting, its kubelet when it
// is back.
func (k *Kubelet) setNodeReady(actor, name string, status corev1.ConditionStatus, reason string) {
	node, err := k.server.GetNode("", name)
	if err != nil {
		return
	}
	node = node.DeepCopy()
	for i := range node.Status.Conditions {
		if node.Status.Conditions[i].Type == corev1.NodeReady {
			node.Status.Conditions[i].Status = status
			node.Status.Conditions[i].Reason = reason
			node.Status.Conditions[i].LastTransitionTime = metav1.NewTime(k.clock.Now())
		}
	}
	_, _ = k.server.UpdateNodeStatus(actor, node)
}

func (k *Kubelet) markNodePodsNotReady(name string) {
	if n := k.nodes[name]; n != nil {
		n.marked = true
	}
	k.setNodeReady("node-controller", name, corev1.ConditionUnknown, "NodeStatusUnknown")
	marked := 0
	for _, key := range k.sortedPodKeysOnNode(name) {
		p := k.pods.At(key)
		pod, ok := k.freshPod(p)
		if !ok || pod.DeletionTimestamp != nil {
			continue
		}
		setPodCondition(pod, corev1.PodReady, corev1.ConditionFalse, "NodeNotReady", k.clock.Now())
		k.writeStatus("node-controller", pod)
		k.writable(p).gen++
		marked++
	}
	k.emit(Transition{Actor: "node-controller", Node: name, What: "not-ready", Detail: fmt.Sprintf("%d pods marked NotReady", marked)})
}

func (k *Kubelet) evictNodePods(name string) {
	keys := k.sortedPodKeysOnNode(name)
	n := 0
	for _, key := range keys {
		p := k.pods.At(key)
		if p.stage == stageTerminating {
			continue
		}
		ns, podName := splitKey(key)
		if err := k.server.DeletePod("node-controller", ns, podName, apiserver.DeleteOptions{}); err == nil {
			n++
		}
	}
	k.emit(Transition{Actor: "node-controller", Node: name, What: "evicted", Detail: fmt.Sprintf("%d pods deleted", n)})
}
