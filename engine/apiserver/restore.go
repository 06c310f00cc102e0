package apiserver

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// RestoreObject stores in as the state another cluster had: a scenario's initial
// state pasted from `kubectl get -o yaml`. The request is defaulted and
// validated as a create, and gets a new UID and resourceVersion, but it keeps
// what a create would reset: status, metadata.generation,
// creationTimestamp, and a pod's deletionTimestamp (a pod pasted while
// terminating stays terminating). The trace records it as a create by
// actor, answered with 201.
func (s *Server) RestoreObject(actor string, res Resource, in Object) (Object, error) {
	if isNil(in) {
		return s.create(actor, res, in)
	}
	in = in.DeepCopyObject().(Object)
	in.SetResourceVersion("")
	out, err := s.doCreate(res, in, true)
	s.record(actor, "create", res, "", s.namespaceOf(res, in), in.GetName(), out, 201, err)
	return out, err
}

// restoreState copies onto obj, a create request after defaulting and
// validation, the server-written state of in.
func restoreState(obj, in Object) {
	if ts := in.GetCreationTimestamp(); !ts.Time.IsZero() {
		obj.SetCreationTimestamp(ts)
	}
	if g := in.GetGeneration(); g > 0 {
		obj.SetGeneration(g)
	}
	switch o := obj.(type) {
	case *appsv1.Deployment:
		in.(*appsv1.Deployment).Status.DeepCopyInto(&o.Status)
	case *appsv1.ReplicaSet:
		in.(*appsv1.ReplicaSet).Status.DeepCopyInto(&o.Status)
	case *corev1.Pod:
		p := in.(*corev1.Pod)
		qos := o.Status.QOSClass
		p.Status.DeepCopyInto(&o.Status)
		if o.Status.Phase == "" {
			o.Status.Phase = corev1.PodPending
		}
		if o.Status.QOSClass == "" {
			o.Status.QOSClass = qos
		}
		if p.DeletionTimestamp != nil {
			o.DeletionTimestamp = p.DeletionTimestamp.DeepCopy()
			o.DeletionGracePeriodSeconds = p.DeletionGracePeriodSeconds
		}
	}
}
