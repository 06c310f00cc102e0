package kubectl

import (
	"errors"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// The edits of a Deployment people make with `kubectl set` and `kubectl
// patch`. Each one reads the Deployment, changes a copy and sends one
// update; the API server validates the result, so a bad maxSurge or a
// rollingUpdate under Recreate gets the API server's own message.

// ErrContainerRequired: a container edit on a template with several
// containers did not name one.
var ErrContainerRequired = errors.New("kubectl: container name required")

// patched sends the Deployment mutate produced and reports kubectl patch's
// reply: "deployment.apps/web patched", or "patched (no change)" when the
// stored object came back the same.
func (k *Kubectl) patched(ns, name string, mutate func(d *appsv1.Deployment) error) (string, error) {
	cur, err := k.srv.GetDeployment(ns, name)
	if err != nil {
		return "", err
	}
	d := cur.DeepCopy()
	if err := mutate(d); err != nil {
		return "", err
	}
	stored, err := k.srv.UpdateDeployment(Actor, d)
	if err != nil {
		return "", err
	}
	msg := objectName(apiserver.Deployments, name) + " patched"
	if stored.GetResourceVersion() == cur.GetResourceVersion() || sameContent(stored, cur) {
		msg += " (no change)"
	}
	return msg, nil
}

// SetRollingUpdate sets spec.strategy.rollingUpdate.maxSurge and/or
// maxUnavailable (nil leaves a value as it is), as `kubectl patch` with a
// merge patch would. Under the Recreate strategy the API server refuses it.
func (k *Kubectl) SetRollingUpdate(ns, name string, maxSurge, maxUnavailable *intstr.IntOrString) (string, error) {
	return k.patched(ns, name, func(d *appsv1.Deployment) error {
		setRollingParams(&d.Spec.Strategy, maxSurge, maxUnavailable)
		return nil
	})
}

// setRollingParams overrides the given rolling-update parameters, creating
// spec.strategy.rollingUpdate when needed.
func setRollingParams(st *appsv1.DeploymentStrategy, maxSurge, maxUnavailable *intstr.IntOrString) {
	if maxSurge == nil && maxUnavailable == nil {
		return
	}
	if st.RollingUpdate == nil {
		st.RollingUpdate = &appsv1.RollingUpdateDeployment{}
	}
	if maxSurge != nil {
		v := *maxSurge
		st.RollingUpdate.MaxSurge = &v
	}
	if maxUnavailable != nil {
		v := *maxUnavailable
		st.RollingUpdate.MaxUnavailable = &v
	}
}

// SetStrategy switches spec.strategy.type. To Recreate it clears
// rollingUpdate (as a user must: the API server forbids it under Recreate)
// unless parameters are given, which then reach the API server and are
// refused. To RollingUpdate from Recreate the server defaults the parameters
// (25%/25%) that are not given; staying on RollingUpdate keeps them.
func (k *Kubectl) SetStrategy(ns, name string, typ appsv1.DeploymentStrategyType, maxSurge, maxUnavailable *intstr.IntOrString) (string, error) {
	return k.patched(ns, name, func(d *appsv1.Deployment) error {
		if d.Spec.Strategy.Type != typ {
			d.Spec.Strategy.RollingUpdate = nil
		}
		d.Spec.Strategy.Type = typ
		setRollingParams(&d.Spec.Strategy, maxSurge, maxUnavailable)
		return nil
	})
}

// SetMinReadySeconds sets spec.minReadySeconds (the API server checks it is
// >= 0 and below progressDeadlineSeconds).
func (k *Kubectl) SetMinReadySeconds(ns, name string, seconds int32) (string, error) {
	return k.patched(ns, name, func(d *appsv1.Deployment) error {
		d.Spec.MinReadySeconds = seconds
		return nil
	})
}

// SetProgressDeadline sets spec.progressDeadlineSeconds (the API server
// checks it is above minReadySeconds).
func (k *Kubectl) SetProgressDeadline(ns, name string, seconds int32) (string, error) {
	return k.patched(ns, name, func(d *appsv1.Deployment) error {
		d.Spec.ProgressDeadlineSeconds = &seconds
		return nil
	})
}

// SetResources sets the named resource requests and limits of a container
// (keys not named keep their values), as `kubectl set resources -c`:
// "deployment.apps/web resource requirements updated".
func (k *Kubectl) SetResources(ns, name, container string, requests, limits corev1.ResourceList) (string, error) {
	err := k.updateDeployment(ns, name, func(d *appsv1.Deployment) error {
		cs, err := pickContainers(&d.Spec.Template.Spec, container)
		if err != nil {
			return err
		}
		for _, c := range cs {
			mergeResources(&c.Resources.Requests, requests)
			mergeResources(&c.Resources.Limits, limits)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return objectName(apiserver.Deployments, name) + " resource requirements updated", nil
}

func mergeResources(dst *corev1.ResourceList, src corev1.ResourceList) {
	if len(src) == 0 {
		return
	}
	if *dst == nil {
		*dst = corev1.ResourceList{}
	}
	for k, v := range src {
		(*dst)[k] = v.DeepCopy()
	}
}

// EnvChange is one variable of SetEnv: set to Value, or removed.
type EnvChange struct {
	Name   string `json:"name"`
	Value  string `json:"value,omitempty"`
	Remove bool   `json:"remove,omitempty"`
}

// SetEnv sets or removes environment variables of a container, as `kubectl
// set env -c NAME=value OLD-`: an existing variable is replaced in place, a
// new one appended: "deployment.apps/web env updated".
func (k *Kubectl) SetEnv(ns, name, container string, changes []EnvChange) (string, error) {
	err := k.updateDeployment(ns, name, func(d *appsv1.Deployment) error {
		cs, err := pickContainers(&d.Spec.Template.Spec, container)
		if err != nil {
			return err
		}
		for _, c := range cs {
			for _, ch := range changes {
				c.Env = applyEnv(c.Env, ch)
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return objectName(apiserver.Deployments, name) + " env updated", nil
}

func applyEnv(env []corev1.EnvVar, ch EnvChange) []corev1.EnvVar {
	out := env[:0:0]
	found := false
	for _, e := range env {
		if e.Name != ch.Name {
			out = append(out, e)
			continue
		}
		found = true
		if !ch.Remove {
			out = append(out, corev1.EnvVar{Name: ch.Name, Value: ch.Value})
		}
	}
	if !found && !ch.Remove {
		out = append(out, corev1.EnvVar{Name: ch.Name, Value: ch.Value})
	}
	return out
}

// pickContainers returns the containers an edit names: "*" every container
// and init container; a name the container (or init container) of that
// name; "" the only container of a one-container template. Otherwise the
// error lists the containers there are.
func pickContainers(spec *corev1.PodSpec, container string) ([]*corev1.Container, error) {
	var all []*corev1.Container
	for i := range spec.InitContainers {
		all = append(all, &spec.InitContainers[i])
	}
	for i := range spec.Containers {
		all = append(all, &spec.Containers[i])
	}
	switch container {
	case "*":
		return all, nil
	case "":
		if len(spec.Containers) == 1 {
			return []*corev1.Container{&spec.Containers[0]}, nil
		}
		return nil, failf(ErrContainerRequired, "container: required when the pod template has more than one container (containers: %s)", containerNames(spec))
	}
	for _, c := range all {
		if c.Name == container {
			return []*corev1.Container{c}, nil
		}
	}
	return nil, failf(ErrContainerNotFound, "unable to find container named %q (containers: %s)", container, containerNames(spec))
}

// containerNames lists the template's init containers and containers.
func containerNames(spec *corev1.PodSpec) string {
	var names []string
	for _, c := range spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range spec.Containers {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}
