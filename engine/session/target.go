package session

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// maxTargetsListed bounds the "found:" list of a target error.
const maxTargetsListed = 8

// targetError is an action whose object does not exist in its namespace.
// Its message names what does exist, so a namespace mistake reads as one:
// `no deployment "web" in namespace default; found: shop/web`. It unwraps to
// the API server's NotFound.
type targetError struct {
	msg   string
	cause error
}

func (e *targetError) Error() string { return e.msg }
func (e *targetError) Unwrap() error { return e.cause }

// checkTarget returns a targetError when the object of kind k called name
// is missing from namespace ns, nil when it exists. The message lists the
// objects of that name in other namespaces or, when there are none, every
// object of the kind (at most maxTargetsListed).
func checkTarget(srv *apiserver.Server, k scenario.Kind, ns, name string) error {
	res := resourceOf(k)
	_, err := srv.Get(res, ns, name)
	if !apierrors.IsNotFound(err) {
		return nil
	}
	var all, same []string
	for _, o := range listAll(srv, res) {
		key := o.GetNamespace() + "/" + o.GetName()
		all = append(all, key)
		if o.GetName() == name {
			same = append(same, key)
		}
	}
	found := same
	if len(found) == 0 {
		found = all
	}
	msg := "no " + k.String() + " " + strconv.Quote(name) + " in namespace " + ns
	switch {
	case len(found) == 0:
		msg += "; there are no " + res.String()
	case len(found) > maxTargetsListed:
		msg += "; found: " + strings.Join(found[:maxTargetsListed], ", ") + ", ... (" + strconv.Itoa(len(found)) + " in all)"
	default:
		msg += "; found: " + strings.Join(found, ", ")
	}
	return &targetError{msg: msg, cause: err}
}

// listAll lists every object of res in every namespace, sorted by
// namespace/name.
func listAll(srv *apiserver.Server, res apiserver.Resource) []apiserver.Object {
	var out []apiserver.Object
	switch res {
	case apiserver.Deployments:
		for _, o := range srv.ListDeployments("", nil) {
			out = append(out, o)
		}
	case apiserver.ReplicaSets:
		for _, o := range srv.ListReplicaSets("", nil) {
			out = append(out, o)
		}
	case apiserver.Pods:
		for _, o := range srv.ListPods("", nil) {
			out = append(out, o)
		}
	}
	return out
}

// Target is a Deployment as the action forms offer it: what a user action
// can name, and the current values its edits change.
type Target struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Target is the action's target field: "deployment/<name>".
	Target   string `json:"target"`
	Replicas int32  `json:"replicas"`
	Paused   bool   `json:"paused"`
	// Strategy is "RollingUpdate" or "Recreate"; MaxSurge and
	// MaxUnavailable are set under RollingUpdate only.
	Strategy                string              `json:"strategy"`
	MaxSurge                *intstr.IntOrString `json:"maxSurge,omitempty"`
	MaxUnavailable          *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	MinReadySeconds         int32               `json:"minReadySeconds"`
	ProgressDeadlineSeconds int32               `json:"progressDeadlineSeconds"`
	// Containers are the template's init containers (Init set) then its
	// containers, in template order.
	Containers []TargetContainer `json:"containers"`
}

// TargetContainer is one container of a Target's pod template.
type TargetContainer struct {
	Name  string `json:"name"`
	Image string `json:"image"`
	// Init marks an init container (a native sidecar when it restarts
	// Always).
	Init      bool                         `json:"init,omitempty"`
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
	// Env lists the variables with a plain value.
	Env []corev1.EnvVar `json:"env,omitempty"`
}

// Targets lists the Deployments of every namespace at the current step,
// sorted by namespace then name.
func (s *Session) Targets() []Target {
	ds := s.sim.Server().ListDeployments("", nil)
	out := make([]Target, 0, len(ds))
	for _, d := range ds {
		t := Target{
			Namespace: d.Namespace, Name: d.Name, Target: "deployment/" + d.Name,
			Paused: d.Spec.Paused, Strategy: string(d.Spec.Strategy.Type), MinReadySeconds: d.Spec.MinReadySeconds,
		}
		if d.Spec.Replicas != nil {
			t.Replicas = *d.Spec.Replicas
		}
		if d.Spec.ProgressDeadlineSeconds != nil {
			t.ProgressDeadlineSeconds = *d.Spec.ProgressDeadlineSeconds
		}
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
			t.MaxSurge, t.MaxUnavailable = ru.MaxSurge, ru.MaxUnavailable
		}
		spec := &d.Spec.Template.Spec
		for i := range spec.InitContainers {
			t.Containers = append(t.Containers, targetContainer(&spec.InitContainers[i], true))
		}
		for i := range spec.Containers {
			t.Containers = append(t.Containers, targetContainer(&spec.Containers[i], false))
		}
		out = append(out, t)
	}
	return out
}

func targetContainer(c *corev1.Container, init bool) TargetContainer {
	tc := TargetContainer{Name: c.Name, Image: c.Image, Init: init}
	if len(c.Resources.Requests) > 0 || len(c.Resources.Limits) > 0 {
		tc.Resources = c.Resources.DeepCopy()
	}
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			tc.Env = append(tc.Env, corev1.EnvVar{Name: e.Name, Value: e.Value})
		}
	}
	return tc
}
