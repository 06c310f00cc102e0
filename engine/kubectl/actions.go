package kubectl

import (
	"errors"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// Actor is the actor name of every API request kubectl makes.
const Actor = "kubectl"

// RestartedAtAnnotation is the pod template annotation `kubectl rollout
// restart` stamps with the current time (RFC3339).
const RestartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"

// Client-side errors kubectl reports without asking the API server.
var (
	// ErrUnsupportedKind: the action does not apply to that resource.
	ErrUnsupportedKind = errors.New("kubectl: unsupported resource for this action")
	// ErrPaused: restart or undo of a paused Deployment.
	ErrPaused = errors.New("kubectl: deployment is paused")
	// ErrContainerNotFound: set image named a container the template lacks.
	ErrContainerNotFound = errors.New("kubectl: container not found")
	// ErrRevisionNotFound: undo found no revision to go back to.
	ErrRevisionNotFound = errors.New("kubectl: revision not found")
)

// Kubectl issues kubectl's requests against an API server.
type Kubectl struct {
	srv   *apiserver.Server
	clock *clock.Clock
}

// New returns a kubectl talking to srv, reading the virtual time from c
// (used only by Restart).
func New(srv *apiserver.Server, c *clock.Clock) *Kubectl {
	return &Kubectl{srv: srv, clock: c}
}

// objectName renders kubectl's resource/name form, e.g. "deployment.apps/web".
func objectName(res apiserver.Resource, name string) string {
	return KindName(res) + "/" + name
}

// KindName is the lower-case group-qualified kind: "deployment.apps", "pod".
func KindName(res apiserver.Resource) string {
	switch res {
	case apiserver.Deployments:
		return "deployment.apps"
	case apiserver.ReplicaSets:
		return "replicaset.apps"
	case apiserver.Pods:
		return "pod"
	}
	return string(res)
}

// Apply creates obj (a *appsv1.Deployment, *appsv1.ReplicaSet or
// *corev1.Pod), or, when an object of that name exists, replaces its labels,
// annotations and spec (a simplified `kubectl apply`: no three-way merge).
// The message is "<kind>/<name> created", "configured" or "unchanged"
// (unlike kubectl, an unchanged apply still sends its update: "unchanged"
// means the stored object came back the same after defaulting).
func (k *Kubectl) Apply(obj runtime.Object) (string, error) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return apply(k, apiserver.Deployments, o, k.srv.GetDeployment, k.srv.CreateDeployment, k.srv.UpdateDeployment,
			func(dst, src *appsv1.Deployment) { dst.Spec = *src.Spec.DeepCopy() })
	case *appsv1.ReplicaSet:
		return apply(k, apiserver.ReplicaSets, o, k.srv.GetReplicaSet, k.srv.CreateReplicaSet, k.srv.UpdateReplicaSet,
			func(dst, src *appsv1.ReplicaSet) { dst.Spec = *src.Spec.DeepCopy() })
	case *corev1.Pod:
		return apply(k, apiserver.Pods, o, k.srv.GetPod, k.srv.CreatePod, k.srv.UpdatePod,
			func(dst, src *corev1.Pod) { dst.Spec = *src.Spec.DeepCopy() })
	}
	return "", failf(ErrUnsupportedKind, "error: kind %T is not supported", obj)
}

// object is the set of typed objects Apply handles.
type object interface {
	*appsv1.Deployment | *appsv1.ReplicaSet | *corev1.Pod
	apiserver.Object
}

func apply[T object](k *Kubectl, res apiserver.Resource, in T,
	get func(ns, name string) (T, error),
	create func(actor string, obj T) (T, error),
	update func(actor string, obj T) (T, error),
	copySpec func(dst, src T),
) (string, error) {
	ns := in.GetNamespace()
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	cur, err := get(ns, in.GetName())
	if apierrors.IsNotFound(err) {
		obj := in.DeepCopyObject().(T)
		obj.SetNamespace(ns)
		if _, err := create(Actor, obj); err != nil {
			return "", err
		}
		return objectName(res, in.GetName()) + " created", nil
	}
	if err != nil {
		return "", err
	}
	next := cur.DeepCopyObject().(T)
	next.SetLabels(in.GetLabels())
	next.SetAnnotations(in.GetAnnotations())
	copySpec(next, in)
	stored, err := update(Actor, next)
	if err != nil {
		return "", err
	}
	if stored.GetResourceVersion() == cur.GetResourceVersion() || sameContent(stored, cur) {
		return objectName(res, in.GetName()) + " unchanged", nil
	}
	return objectName(res, in.GetName()) + " configured", nil
}

// sameContent reports whether two stored versions of an object differ only
// in resourceVersion (the update changed nothing after defaulting).
func sameContent(a, b apiserver.Object) bool {
	a = a.DeepCopyObject().(apiserver.Object)
	a.SetResourceVersion(b.GetResourceVersion())
	return apiequality.Semantic.DeepEqual(a, b)
}

// Scale sets spec.replicas of a Deployment or ReplicaSet through the scale
// subresource (a patch of <resource>/scale, as kubectl scale sends it):
// "deployment.apps/web scaled".
func (k *Kubectl) Scale(res apiserver.Resource, ns, name string, replicas int32) (string, error) {
	if res != apiserver.Deployments && res != apiserver.ReplicaSets {
		return "", failf(ErrUnsupportedKind, "cannot scale %s", res)
	}
	if _, err := k.srv.PatchScale(Actor, res, ns, name, replicas); err != nil {
		return "", err
	}
	return objectName(res, name) + " scaled", nil
}

// updateDeployment reads, mutates and writes a Deployment once. Errors,
// including a conflict, are returned as the API server gave them.
func (k *Kubectl) updateDeployment(ns, name string, mutate func(d *appsv1.Deployment) error) error {
	cur, err := k.srv.GetDeployment(ns, name)
	if err != nil {
		return err
	}
	d := cur.DeepCopy()
	if err := mutate(d); err != nil {
		return err
	}
	_, err = k.srv.UpdateDeployment(Actor, d)
	return err
}

// SetImage sets the image of a container of a Deployment's pod template
// (see pickContainers for how container names it; "*" is every container):
// "deployment.apps/web image updated".
func (k *Kubectl) SetImage(ns, name, container, image string) (string, error) {
	err := k.updateDeployment(ns, name, func(d *appsv1.Deployment) error {
		cs, err := pickContainers(&d.Spec.Template.Spec, container)
		if err != nil {
			return err
		}
		for _, c := range cs {
			c.Image = image
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return objectName(apiserver.Deployments, name) + " image updated", nil
}

// Pause sets spec.paused: "deployment.apps/web paused", or "already paused"
// without a request when it is set.
func (k *Kubectl) Pause(ns, name string) (string, error) { return k.setPaused(ns, name, true) }

// Resume clears spec.paused: "deployment.apps/web resumed", or "already
// resumed" without a request when it is clear.
func (k *Kubectl) Resume(ns, name string) (string, error) { return k.setPaused(ns, name, false) }

func (k *Kubectl) setPaused(ns, name string, paused bool) (string, error) {
	verb := "resumed"
	if paused {
		verb = "paused"
	}
	cur, err := k.srv.GetDeployment(ns, name)
	if err != nil {
		return "", err
	}
	if cur.Spec.Paused == paused {
		return objectName(apiserver.Deployments, name) + " already " + verb, nil
	}
	d := cur.DeepCopy()
	d.Spec.Paused = paused
	if _, err := k.srv.UpdateDeployment(Actor, d); err != nil {
		return "", err
	}
	return objectName(apiserver.Deployments, name) + " " + verb, nil
}

// Restart stamps the pod template annotation kubectl.kubernetes.io/restartedAt
// with the virtual now, which starts a rollout: "deployment.apps/web
// restarted". A paused Deployment is refused, as kubectl does.
func (k *Kubectl) Restart(ns, name string) (string, error) {
	err := k.updateDeployment(ns, name, func(d *appsv1.Deployment) error {
		if d.Spec.Paused {
			return failf(ErrPaused, "can't restart paused deployment (run rollout resume first)")
		}
		if d.Spec.Template.Annotations == nil {
			d.Spec.Template.Annotations = map[string]string{}
		}
		d.Spec.Template.Annotations[RestartedAtAnnotation] = k.clock.Now().Format(time.RFC3339)
		return nil
	})
	if err != nil {
		return "", err
	}
	return objectName(apiserver.Deployments, name) + " restarted", nil
}

// Delete deletes a Deployment, ReplicaSet or Pod with a propagation policy
// ("" means the server default, Background): `deployment.apps "web"
// deleted`.
func (k *Kubectl) Delete(res apiserver.Resource, ns, name string, policy metav1.DeletionPropagation) (string, error) {
	var opts apiserver.DeleteOptions
	if policy != "" {
		opts.PropagationPolicy = &policy
	}
	var err error
	switch res {
	case apiserver.Deployments:
		err = k.srv.DeleteDeployment(Actor, ns, name, opts)
	case apiserver.ReplicaSets:
		err = k.srv.DeleteReplicaSet(Actor, ns, name, opts)
	case apiserver.Pods:
		err = k.srv.DeletePod(Actor, ns, name, opts)
	default:
		return "", failf(ErrUnsupportedKind, "cannot delete %s", res)
	}
	if err != nil {
		return "", err
	}
	return KindName(res) + " " + fmt.Sprintf("%q", name) + " deleted", nil
}

// DeletePod deletes a pod with its own grace period: `pod "x" deleted`.
func (k *Kubectl) DeletePod(ns, name string) (string, error) {
	return k.Delete(apiserver.Pods, ns, name, "")
}
