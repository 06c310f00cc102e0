package apiserver

import (
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// scaleKind is the kind named in errors about the scale subresource
// (`Scale.autoscaling "web" is invalid: ...`).
var scaleKind = schema.GroupKind{Group: "autoscaling", Kind: "Scale"}

// PatchScale sets spec.replicas of a Deployment or ReplicaSet through its
// scale subresource, as `kubectl scale` does: a merge patch
// {"spec":{"replicas":N}} sent to <resource>/scale, without a
// resourceVersion precondition. The trace names the subresource
// ("deployments/scale"). The Scale is validated first (replicas >= 0), then
// the parent object as any spec update (generation bumped when the value
// changes). Pods and nodes have no scale subresource: 404.
func (s *Server) PatchScale(actor string, res Resource, ns, name string, replicas int32) (Object, error) {
	out, err := s.doPatchScale(res, ns, name, replicas)
	s.record(actor, "patch", res, "/scale", ns, name, out, 200, err)
	return out, err
}

func (s *Server) doPatchScale(res Resource, ns, name string, replicas int32) (Object, error) {
	if res != Deployments && res != ReplicaSets {
		return nil, apierrors.NewNotFound(schema.GroupResource{Group: res.GroupResource().Group, Resource: string(res) + "/scale"}, name)
	}
	if errs := nonNegative(int64(replicas), field.NewPath("spec", "replicas")); len(errs) > 0 {
		return nil, apierrors.NewInvalid(scaleKind, name, errs)
	}
	// Only the top-level replicas pointer of the copy's spec is replaced
	// (see patch): the stored spec is not touched.
	return s.doPatch(res, ns, name, copyMeta, func(o Object) error {
		switch obj := o.(type) {
		case *appsv1.Deployment:
			obj.Spec.Replicas = &replicas
		case *appsv1.ReplicaSet:
			obj.Spec.Replicas = &replicas
		}
		return nil
	})
}
