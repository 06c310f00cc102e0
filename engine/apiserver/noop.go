package apiserver

import (
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// unchanged reports whether a write of obj over the stored old would store
// nothing: obj and old are semantically equal (see semanticEqual).
//
// The strategies copy onto obj, as a plain assignment from old, the part a
// write may not touch: the spec for a status write (prepareStatus), the
// status for a spec write (prepareUpdate). That part is therefore equal by
// construction and is not compared; a patch may change anything and is
// compared whole. The part the write was about is compared first, so a real
// change is usually found at once. The answer is the same as comparing the
// whole objects.
func unchanged(obj, old Object, mode updateMode) bool {
	switch o := obj.(type) {
	case *corev1.Pod:
		p := old.(*corev1.Pod)
		if podWriteDiffers(mode, o, p) {
			return false
		}
		return partsEqual(mode, &o.Spec, &p.Spec, &o.Status, &p.Status) &&
			metaEqual(&o.ObjectMeta, &p.ObjectMeta) && o.TypeMeta == p.TypeMeta
	case *appsv1.ReplicaSet:
		p := old.(*appsv1.ReplicaSet)
		return partsEqual(mode, &o.Spec, &p.Spec, &o.Status, &p.Status) &&
			metaEqual(&o.ObjectMeta, &p.ObjectMeta) && o.TypeMeta == p.TypeMeta
	case *appsv1.Deployment:
		p := old.(*appsv1.Deployment)
		return partsEqual(mode, &o.Spec, &p.Spec, &o.Status, &p.Status) &&
			metaEqual(&o.ObjectMeta, &p.ObjectMeta) && o.TypeMeta == p.TypeMeta
	case *corev1.Node:
		p := old.(*corev1.Node)
		return partsEqual(mode, &o.Spec, &p.Spec, &o.Status, &p.Status) &&
			metaEqual(&o.ObjectMeta, &p.ObjectMeta) && o.TypeMeta == p.TypeMeta
	}
	return semanticEqual(obj, old)
}

// podWriteDiffers reports a difference between the compared parts of a pod
// write and the stored pod found in a few plain fields, which the kubelet's
// status writes and the binding change: the phase, IPs, the conditions'
// types, statuses and reasons, the containers' readiness and restart
// counts, the node name. Strings, booleans and integers compare exactly
// under the semantic equality, so a difference there decides the answer
// without the reflective walk; false means only that none was found.
func podWriteDiffers(mode updateMode, o, p *corev1.Pod) bool {
	if mode != modeUpdate {
		a, b := &o.Status, &p.Status
		if a.Phase != b.Phase || a.HostIP != b.HostIP || a.PodIP != b.PodIP ||
			len(a.Conditions) != len(b.Conditions) || len(a.ContainerStatuses) != len(b.ContainerStatuses) {
			return true
		}
		for i := range a.Conditions {
			ca, cb := &a.Conditions[i], &b.Conditions[i]
			if ca.Type != cb.Type || ca.Status != cb.Status || ca.Reason != cb.Reason {
				return true
			}
		}
		for i := range a.ContainerStatuses {
			ca, cb := &a.ContainerStatuses[i], &b.ContainerStatuses[i]
			if ca.Ready != cb.Ready || ca.RestartCount != cb.RestartCount || ca.Name != cb.Name {
				return true
			}
		}
	}
	return mode != modeStatus && o.Spec.NodeName != p.Spec.NodeName
}

// partsEqual compares the spec and status pointers of a write in mode, as
// described on unchanged.
func partsEqual(mode updateMode, spec, oldSpec, status, oldStatus any) bool {
	switch mode {
	case modeStatus:
		return semanticEqual(status, oldStatus)
	case modeUpdate:
		return semanticEqual(spec, oldSpec)
	}
	return semanticEqual(spec, oldSpec) && semanticEqual(status, oldStatus)
}

// copyForWrite returns the server's own copy of a request body for a write
// in mode modeUpdate or modeStatus. The part the strategy replaces with the
// stored object's (the spec of a status write, the status of a spec write)
// is not copied: it is left zero and prepareStatus or prepareUpdate fills it
// in before anything reads it.
func copyForWrite(in Object, mode updateMode) Object {
	switch o := in.(type) {
	case *corev1.Pod:
		out := &corev1.Pod{TypeMeta: o.TypeMeta}
		copyWriteMeta(mode, &o.ObjectMeta, &out.ObjectMeta)
		copyPart(mode, &o.Spec, &out.Spec, &o.Status, &out.Status)
		return out
	case *appsv1.ReplicaSet:
		out := &appsv1.ReplicaSet{TypeMeta: o.TypeMeta}
		copyWriteMeta(mode, &o.ObjectMeta, &out.ObjectMeta)
		copyPart(mode, &o.Spec, &out.Spec, &o.Status, &out.Status)
		return out
	case *appsv1.Deployment:
		out := &appsv1.Deployment{TypeMeta: o.TypeMeta}
		copyWriteMeta(mode, &o.ObjectMeta, &out.ObjectMeta)
		copyPart(mode, &o.Spec, &out.Spec, &o.Status, &out.Status)
		return out
	case *corev1.Node:
		out := &corev1.Node{TypeMeta: o.TypeMeta}
		copyWriteMeta(mode, &o.ObjectMeta, &out.ObjectMeta)
		copyPart(mode, &o.Spec, &out.Spec, &o.Status, &out.Status)
		return out
	}
	return in.DeepCopyObject().(Object)
}

// copyWriteMeta copies the metadata of a request body for a write in mode.
// A status write keeps the stored labels, owner references and finalizers
// (prepareStatus) and the stored server-managed fields (commitUpdate), so
// only what it takes from the request is copied: the annotations and the
// managed fields; the rest is a shallow copy that is overwritten before
// anything reads it. Other writes deep-copy all of it.
func copyWriteMeta(mode updateMode, in, out *metav1.ObjectMeta) {
	if mode != modeStatus {
		in.DeepCopyInto(out)
		return
	}
	*out = *in
	out.Labels, out.OwnerReferences, out.Finalizers = nil, nil, nil
	out.DeletionTimestamp, out.DeletionGracePeriodSeconds = nil, nil
	out.Annotations = maps.Clone(in.Annotations)
	if in.ManagedFields != nil {
		out.ManagedFields = make([]metav1.ManagedFieldsEntry, len(in.ManagedFields))
		for i := range in.ManagedFields {
			in.ManagedFields[i].DeepCopyInto(&out.ManagedFields[i])
		}
	}
}

// deepCopier is the generated DeepCopyInto of a spec or status type.
type deepCopier[T any] interface{ DeepCopyInto(*T) }

// copyPart deep-copies the spec (modeUpdate) or the status (modeStatus) of a
// request body into out.
func copyPart[S any, T any, PS deepCopier[S], PT deepCopier[T]](mode updateMode, spec PS, outSpec *S, status PT, outStatus *T) {
	if mode == modeStatus {
		status.DeepCopyInto(outStatus)
		return
	}
	spec.DeepCopyInto(outSpec)
}

// copyMeta returns a copy of the stored object obj whose metadata is its own
// (deep-copied) and whose spec and status share memory with obj. Stored
// objects are never changed in place, so sharing is safe as long as the
// caller only changes metadata, or assigns (never edits in place) top-level
// spec and status fields: the patches, deletion marks and the DELETED
// snapshot all do just that.
func copyMeta(obj Object) Object {
	switch o := obj.(type) {
	case *corev1.Pod:
		cp := *o
		o.ObjectMeta.DeepCopyInto(&cp.ObjectMeta)
		return &cp
	case *appsv1.ReplicaSet:
		cp := *o
		o.ObjectMeta.DeepCopyInto(&cp.ObjectMeta)
		return &cp
	case *appsv1.Deployment:
		cp := *o
		o.ObjectMeta.DeepCopyInto(&cp.ObjectMeta)
		return &cp
	case *corev1.Node:
		cp := *o
		o.ObjectMeta.DeepCopyInto(&cp.ObjectMeta)
		return &cp
	}
	return obj.DeepCopyObject().(Object)
}

// copyShallow returns a copy of the stored object obj that shares all its
// memory, metadata included. It serves writes that only assign metadata
// fields (pointers, strings, numbers, whole new slices), never edit a map or
// slice in place: the deletion marks (also stamped as the DELETED snapshot
// when the delete removes the object) and the binding. Anything else uses
// copyMeta.
func copyShallow(obj Object) Object {
	switch o := obj.(type) {
	case *corev1.Pod:
		cp := *o
		return &cp
	case *appsv1.ReplicaSet:
		cp := *o
		return &cp
	case *appsv1.Deployment:
		cp := *o
		return &cp
	case *corev1.Node:
		cp := *o
		return &cp
	}
	return copyMeta(obj)
}
