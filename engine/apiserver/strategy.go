package apiserver

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// strategy is the per-resource behaviour of the generic write path, as
// function values (one table per resource rather than type switches in the
// request code).
type strategy struct {
	// prepareCreate applies defaults, resets status where the real
	// registry does, and sets generation 1.
	prepareCreate  func(obj Object)
	validateCreate func(obj Object) field.ErrorList
	// prepareUpdate applies defaults, keeps the stored status and bumps
	// generation when the spec (Deployments: or annotations) changed.
	prepareUpdate  func(obj, old Object)
	validateUpdate func(obj, old Object) field.ErrorList
	// prepareStatus keeps the stored spec, labels, ownerReferences and
	// finalizers; status and annotations come from the request.
	prepareStatus  func(obj, old Object)
	validateStatus func(obj, old Object) field.ErrorList
	// gracePeriod returns the graceful-deletion period for a first delete;
	// nil means the type has no graceful deletion.
	gracePeriod func(obj Object, requested *int64) int64
}

var metaPath = field.NewPath("metadata")

// keepStatusMeta copies onto obj the metadata a status write may not
// change.
func keepStatusMeta(obj, old Object) {
	obj.SetLabels(old.GetLabels())
	obj.SetOwnerReferences(old.GetOwnerReferences())
	obj.SetFinalizers(old.GetFinalizers())
}

func bumpIf(obj, old Object, changed bool) {
	obj.SetGeneration(old.GetGeneration())
	if changed {
		obj.SetGeneration(old.GetGeneration() + 1)
	}
}

var strategies = map[Resource]*strategy{
	Deployments: {
		prepareCreate: func(o Object) {
			d := o.(*appsv1.Deployment)
			defaultDeployment(d)
			d.Status = appsv1.DeploymentStatus{}
			d.Generation = 1
		},
		validateCreate: func(o Object) field.ErrorList { return validateDeploymentCreate(o.(*appsv1.Deployment)) },
		prepareUpdate: func(o, old Object) {
			d, od := o.(*appsv1.Deployment), old.(*appsv1.Deployment)
			defaultDeployment(d)
			d.Status = od.Status
			bumpIf(d, od, !semanticEqual(&d.Spec, &od.Spec) || !semanticEqual(d.Annotations, od.Annotations))
		},
		validateUpdate: func(o, old Object) field.ErrorList {
			return validateDeploymentUpdate(o.(*appsv1.Deployment), old.(*appsv1.Deployment))
		},
		prepareStatus: func(o, old Object) {
			d, od := o.(*appsv1.Deployment), old.(*appsv1.Deployment)
			d.Spec = od.Spec
			keepStatusMeta(d, od)
			d.Generation = od.Generation
		},
		validateStatus: func(o, old Object) field.ErrorList {
			d, od := o.(*appsv1.Deployment), old.(*appsv1.Deployment)
			errs := validateMetaUpdate(&d.ObjectMeta, &od.ObjectMeta, metaPath)
			return append(errs, validateDeploymentStatus(&d.Status, field.NewPath("status"))...)
		},
	},
	ReplicaSets: {
		prepareCreate: func(o Object) {
			rs := o.(*appsv1.ReplicaSet)
			defaultReplicaSet(rs)
			rs.Status = appsv1.ReplicaSetStatus{}
			rs.Generation = 1
		},
		validateCreate: func(o Object) field.ErrorList { return validateReplicaSetCreate(o.(*appsv1.ReplicaSet)) },
		prepareUpdate: func(o, old Object) {
			rs, ors := o.(*appsv1.ReplicaSet), old.(*appsv1.ReplicaSet)
			defaultReplicaSet(rs)
			rs.Status = ors.Status
			bumpIf(rs, ors, !semanticEqual(&rs.Spec, &ors.Spec))
		},
		validateUpdate: func(o, old Object) field.ErrorList {
			return validateReplicaSetUpdate(o.(*appsv1.ReplicaSet), old.(*appsv1.ReplicaSet))
		},
		prepareStatus: func(o, old Object) {
			rs, ors := o.(*appsv1.ReplicaSet), old.(*appsv1.ReplicaSet)
			rs.Spec = ors.Spec
			keepStatusMeta(rs, ors)
			rs.Generation = ors.Generation
		},
		validateStatus: func(o, old Object) field.ErrorList {
			rs, ors := o.(*appsv1.ReplicaSet), old.(*appsv1.ReplicaSet)
			errs := validateMetaUpdate(&rs.ObjectMeta, &ors.ObjectMeta, metaPath)
			return append(errs, validateReplicaSetStatus(&rs.Status, field.NewPath("status"))...)
		},
	},
	Pods: {
		prepareCreate: func(o Object) {
			p := o.(*corev1.Pod)
			defaultPod(p)
			p.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: podQOSClass(p)}
			p.Generation = 1
		},
		validateCreate: func(o Object) field.ErrorList { return validatePodCreate(o.(*corev1.Pod)) },
		prepareUpdate: func(o, old Object) {
			p, op := o.(*corev1.Pod), old.(*corev1.Pod)
			defaultPod(p)
			p.Status = op.Status
			bumpIf(p, op, !semanticEqual(&p.Spec, &op.Spec))
		},
		validateUpdate: func(o, old Object) field.ErrorList {
			return validatePodUpdate(o.(*corev1.Pod), old.(*corev1.Pod))
		},
		prepareStatus: func(o, old Object) {
			p, op := o.(*corev1.Pod), old.(*corev1.Pod)
			p.Spec = op.Spec
			keepStatusMeta(p, op)
			p.Generation = op.Generation
		},
		validateStatus: func(o, old Object) field.ErrorList {
			p, op := o.(*corev1.Pod), old.(*corev1.Pod)
			return validateMetaUpdate(&p.ObjectMeta, &op.ObjectMeta, metaPath)
		},
		gracePeriod: podGracePeriod,
	},
	Nodes: {
		// Nodes may be created with their status (the kubelet registers
		// that way); generation is not used.
		prepareCreate: func(Object) {},
		validateCreate: func(o Object) field.ErrorList {
			n := o.(*corev1.Node)
			return validateMeta(&n.ObjectMeta, false, dnsSubdomainName, metaPath)
		},
		prepareUpdate: func(o, old Object) {
			n, on := o.(*corev1.Node), old.(*corev1.Node)
			n.Status = on.Status
			n.Generation = on.Generation
		},
		validateUpdate: func(o, old Object) field.ErrorList {
			n, on := o.(*corev1.Node), old.(*corev1.Node)
			errs := validateMetaUpdate(&n.ObjectMeta, &on.ObjectMeta, metaPath)
			return append(errs, validateMeta(&n.ObjectMeta, false, dnsSubdomainName, metaPath)...)
		},
		prepareStatus: func(o, old Object) {
			n, on := o.(*corev1.Node), old.(*corev1.Node)
			n.Spec = on.Spec
			keepStatusMeta(n, on)
			n.Generation = on.Generation
		},
		validateStatus: func(o, old Object) field.ErrorList {
			n, on := o.(*corev1.Node), old.(*corev1.Node)
			return validateMetaUpdate(&n.ObjectMeta, &on.ObjectMeta, metaPath)
		},
	},
}

// podGracePeriod is the period of a first graceful pod delete: the request's
// value, else the pod's terminationGracePeriodSeconds (30 if unset); 0 for
// an unscheduled or terminal pod; a negative value becomes 1.
func podGracePeriod(o Object, requested *int64) int64 {
	p := o.(*corev1.Pod)
	period := defaultTerminationGracePeriodSecs
	switch {
	case requested != nil:
		period = *requested
	case p.Spec.TerminationGracePeriodSeconds != nil:
		period = *p.Spec.TerminationGracePeriodSeconds
	}
	if p.Spec.NodeName == "" || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	return period
}
