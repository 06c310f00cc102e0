package deployment

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// Event handlers (BEHAVIOR §4.1). They only enqueue keys; every reason
// names the object and what happened to it.

func (dc *Controller) enqueue(d *appsv1.Deployment, reason string) {
	dc.queue.Add(d.Namespace+"/"+d.Name, reason)
}

func (dc *Controller) addDeployment(obj apiserver.Object) {
	d, ok := obj.(*appsv1.Deployment)
	if !ok {
		return
	}
	dc.enqueue(d, "deployment "+d.Namespace+"/"+d.Name+" added")
}

// updateDeployment enqueues on every update, resyncs included: there is no
// resourceVersion check for Deployments.
func (dc *Controller) updateDeployment(_, cur apiserver.Object) {
	d, ok := cur.(*appsv1.Deployment)
	if !ok {
		return
	}
	dc.enqueue(d, "deployment "+d.Namespace+"/"+d.Name+" updated")
}

func (dc *Controller) deleteDeployment(obj any) {
	d, ok := unwrap(obj).(*appsv1.Deployment)
	if !ok {
		return
	}
	dc.enqueue(d, "deployment "+d.Namespace+"/"+d.Name+" deleted")
}

// unwrap returns the object of a tombstone, or obj itself.
func unwrap(obj any) any {
	if t, ok := obj.(informer.Tombstone); ok {
		return t.Obj
	}
	if t, ok := obj.(*informer.Tombstone); ok && t != nil {
		return t.Obj
	}
	return obj
}

// resolveControllerRef returns the cached Deployment ref points at, or nil
// when ref is not a Deployment or the cached one has another UID.
func (dc *Controller) resolveControllerRef(ns string, ref *metav1.OwnerReference) *appsv1.Deployment {
	if ref == nil || ref.Kind != deploymentGVK.Kind {
		return nil
	}
	d, ok := dc.dInformer.Store().Get(ns + "/" + ref.Name).(*appsv1.Deployment)
	if !ok || d.UID != ref.UID {
		return nil
	}
	return d
}

// deploymentsForReplicaSet returns the cached Deployments of rs's namespace
// whose non-empty, valid selector matches rs's labels, in cache order. A
// ReplicaSet without labels matches nothing.
func (dc *Controller) deploymentsForReplicaSet(rs *appsv1.ReplicaSet) []*appsv1.Deployment {
	if len(rs.Labels) == 0 {
		return nil
	}
	var out []*appsv1.Deployment
	for _, obj := range dc.dInformer.Store().List(rs.Namespace, nil) {
		d := obj.(*appsv1.Deployment)
		sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(rs.Labels)) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func (dc *Controller) addReplicaSet(obj apiserver.Object) {
	rs, ok := obj.(*appsv1.ReplicaSet)
	if !ok {
		return
	}
	if rs.DeletionTimestamp != nil {
		// A ReplicaSet that shows up already being deleted (after a
		// restart) is handled as a delete.
		dc.deleteReplicaSet(rs)
		return
	}
	if ref := metav1.GetControllerOfNoCopy(rs); ref != nil {
		if d := dc.resolveControllerRef(rs.Namespace, ref); d != nil {
			dc.enqueue(d, "replicaset "+rs.Name+" added")
		}
		return
	}
	for _, d := range dc.deploymentsForReplicaSet(rs) {
		dc.enqueue(d, "orphan replicaset "+rs.Name+" added, labels match")
	}
}

func (dc *Controller) updateReplicaSet(oldObj, curObj apiserver.Object) {
	cur, ok1 := curObj.(*appsv1.ReplicaSet)
	old, ok2 := oldObj.(*appsv1.ReplicaSet)
	if !ok1 || !ok2 || cur.ResourceVersion == old.ResourceVersion {
		// A periodic resync or relist: nothing changed.
		return
	}
	curRef, oldRef := metav1.GetControllerOfNoCopy(cur), metav1.GetControllerOfNoCopy(old)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		if d := dc.resolveControllerRef(old.Namespace, oldRef); d != nil {
			dc.enqueue(d, "replicaset "+cur.Name+" controller changed away")
		}
	}
	if curRef != nil {
		if d := dc.resolveControllerRef(cur.Namespace, curRef); d != nil {
			dc.enqueue(d, "replicaset "+cur.Name+" updated")
		}
		return
	}
	if refChanged || !reflect.DeepEqual(cur.Labels, old.Labels) {
		for _, d := range dc.deploymentsForReplicaSet(cur) {
			dc.enqueue(d, "orphan replicaset "+cur.Name+" updated, labels match")
		}
	}
}

func (dc *Controller) deleteReplicaSet(obj any) {
	rs, ok := unwrap(obj).(*appsv1.ReplicaSet)
	if !ok {
		return
	}
	dc.templates.forget(rs.UID)
	ref := metav1.GetControllerOfNoCopy(rs)
	if ref == nil {
		return
	}
	if d := dc.resolveControllerRef(rs.Namespace, ref); d != nil {
		dc.enqueue(d, "replicaset "+rs.Name+" deleted")
	}
}

// deploymentForPod follows pod -> ReplicaSet (cache, UID checked) ->
// Deployment.
func (dc *Controller) deploymentForPod(pod *corev1.Pod) *appsv1.Deployment {
	ref := metav1.GetControllerOfNoCopy(pod)
	if ref == nil || ref.Kind != "ReplicaSet" {
		return nil
	}
	rs, ok := dc.rsInformer.Store().Get(pod.Namespace + "/" + ref.Name).(*appsv1.ReplicaSet)
	if !ok || rs.UID != ref.UID {
		return nil
	}
	return dc.resolveControllerRef(rs.Namespace, metav1.GetControllerOfNoCopy(rs))
}

// deletePod matters only to Recreate Deployments: it enqueues the
// Deployment once none of its ReplicaSets has a pod left in the cache. The
// ReplicaSets are LISTed live from the API server, as upstream does.
func (dc *Controller) deletePod(obj any) {
	pod, ok := unwrap(obj).(*corev1.Pod)
	if !ok {
		return
	}
	d := dc.deploymentForPod(pod)
	if d == nil || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		return
	}
	rsList, err := dc.listReplicaSetsLive(d)
	if err != nil {
		return
	}
	n := 0
	for _, pods := range dc.podMap(rsList) {
		n += len(pods.pods)
	}
	if n == 0 {
		dc.enqueue(d, "pod "+pod.Name+" deleted, no pods left (Recreate)")
	}
}

// listReplicaSetsLive lists d's ReplicaSets from the API server by selector
// and keeps those d controls.
func (dc *Controller) listReplicaSetsLive(d *appsv1.Deployment) ([]*appsv1.ReplicaSet, error) {
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var owned []*appsv1.ReplicaSet
	for _, rs := range dc.server.ListReplicaSets(d.Namespace, sel) {
		if podutil.IsControlledBy(rs, d.UID) {
			owned = append(owned, rs)
		}
	}
	return owned, nil
}
