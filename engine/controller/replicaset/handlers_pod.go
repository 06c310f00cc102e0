package replicaset

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/workqueue"
)

// addPod handles a pod appearing in the cache. A pod already being deleted
// is handled as a delete. A pod whose controller resolves to a cached
// ReplicaSet counts as an observed creation. An orphan wakes every
// ReplicaSet that selects it (without observing a creation), so one of them
// can adopt it.
func (rc *Controller) addPod(obj apiserver.Object) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	if pod.DeletionTimestamp != nil {
		rc.podGone(pod, " added while terminating (deletion observed)")
		return
	}
	if ref := metav1.GetControllerOfNoCopy(pod); ref != nil {
		rs, key := rc.resolveControllerRef(pod.Namespace, ref)
		if rs == nil {
			return
		}
		rc.expectations.CreationObserved(key)
		rc.queue.AddBecause(key, workqueue.Because("pod ", pod.Name, " created (expectation observed)"))
		return
	}
	for _, rs := range rc.getPodReplicaSets(pod) {
		rc.enqueue(rs, "orphan pod "+podKey(pod)+" added, selector matches")
	}
}

// updatePod handles a changed pod (BEHAVIOR §3.1 "Pod update").
func (rc *Controller) updatePod(oldObj, newObj apiserver.Object) {
	oldPod, ok1 := oldObj.(*corev1.Pod)
	cur, ok2 := newObj.(*corev1.Pod)
	if !ok1 || !ok2 || cur.ResourceVersion == oldPod.ResourceVersion {
		return
	}
	labelChanged := !sameLabelMap(cur.Labels, oldPod.Labels)
	if cur.DeletionTimestamp != nil {
		// The kubelet will delete it once its grace period is over; the
		// deletionTimestamp already counts as the observed deletion.
		rc.podGone(cur, " terminating (deletion observed)")
		if labelChanged {
			rc.podGone(oldPod, " terminating (labels changed) (deletion observed)")
		}
		return
	}
	curRef := metav1.GetControllerOfNoCopy(cur)
	oldRef := metav1.GetControllerOfNoCopy(oldPod)
	refChanged := !sameOwnerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if rs, key := rc.resolveControllerRef(oldPod.Namespace, oldRef); rs != nil {
			rc.queue.AddBecause(key, workqueue.Because("pod ", cur.Name, " controller changed (was ours)"))
		}
	}
	if curRef != nil {
		rs, key := rc.resolveControllerRef(cur.Namespace, curRef)
		if rs == nil {
			return
		}
		why := workqueue.Because("pod ", cur.Name, " updated")
		if oldRef == nil {
			why = workqueue.Because("pod ", podKey(cur), " adopted (controller reference set)")
		}
		rc.queue.AddBecause(key, why)
		if !podutil.IsPodReady(oldPod) && podutil.IsPodReady(cur) && rs.Spec.MinReadySeconds > 0 {
			after := secondsDuration(rs.Spec.MinReadySeconds)
			rc.queue.AddAfter(key, "pod "+cur.Name+" became ready: availability check after minReadySeconds "+
				strconv.Itoa(int(rs.Spec.MinReadySeconds)), after)
		}
		return
	}
	if labelChanged || refChanged {
		for _, rs := range rc.getPodReplicaSets(cur) {
			rc.enqueue(rs, "orphan pod "+podKey(cur)+" changed, selector matches")
		}
	}
}

// deletePod handles a pod leaving the cache, possibly as a tombstone whose
// contents may be stale.
func (rc *Controller) deletePod(obj any) {
	var pod *corev1.Pod
	what := " deleted (deletion observed)"
	switch o := obj.(type) {
	case *corev1.Pod:
		pod = o
	case informer.Tombstone:
		pod, _ = o.Obj.(*corev1.Pod)
		what = " deleted (tombstone) (deletion observed)"
	}
	if pod == nil {
		return
	}
	rc.podGone(pod, what)
}

// podGone observes the deletion of a controlled pod (by its key, counted
// once) and enqueues its ReplicaSet for the reason "pod <name>" + what.
// Orphans are ignored.
func (rc *Controller) podGone(pod *corev1.Pod, what string) {
	ref := metav1.GetControllerOfNoCopy(pod)
	if ref == nil {
		return
	}
	rs, key := rc.resolveControllerRef(pod.Namespace, ref)
	if rs == nil {
		return
	}
	rc.expectations.DeletionObservedKey(key, podKey(pod))
	rc.queue.AddBecause(key, workqueue.Because("pod ", pod.Name, what))
}

// resolveControllerRef returns the cached ReplicaSet ref points to, and its
// key (the informer store's string, the queue key) for the caller: the kind must be ReplicaSet,
// the name must be cached and the UID must match.
func (rc *Controller) resolveControllerRef(ns string, ref *metav1.OwnerReference) (*appsv1.ReplicaSet, string) {
	if ref.Kind != "ReplicaSet" {
		return nil, ""
	}
	obj, key, _ := rc.replicaSets.Store().Lookup(ns, ref.Name)
	rs, ok := obj.(*appsv1.ReplicaSet)
	if !ok || rs.UID != ref.UID {
		return nil, ""
	}
	return rs, key
}

// getPodReplicaSets returns the cached ReplicaSets in the pod's namespace
// whose non-empty selector matches the pod's labels. A pod without labels
// matches none. More than one match is a user error, reported and
// tolerated.
func (rc *Controller) getPodReplicaSets(pod *corev1.Pod) []*appsv1.ReplicaSet {
	if len(pod.Labels) == 0 {
		return nil
	}
	var out []*appsv1.ReplicaSet
	set := labels.Set(pod.Labels)
	for _, obj := range rc.replicaSets.Store().List(pod.Namespace, nil) {
		rs, ok := obj.(*appsv1.ReplicaSet)
		if !ok {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(rs.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(set) {
			continue
		}
		out = append(out, rs)
	}
	if len(out) > 1 {
		rc.emit(Note{Key: podKey(pod), Message: fmt.Sprintf("user error! more than one ReplicaSet is selecting pods with labels: %+v", pod.Labels)})
	}
	return out
}

// podKey is the expectations key of a pod, "ns/name".
func podKey(pod *corev1.Pod) string { return keyOf(pod.Namespace, pod.Name) }
