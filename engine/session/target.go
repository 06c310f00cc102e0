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
	switch res {
	case apiserver.Deployments:
		return asObjects(srv.ListDeployments("", nil))
	case apiserver.ReplicaSets:
		return asObjects(srv.ListReplicaSets("", nil))
	case apiserver.Pods:
		return asObjects(srv.ListPods("", nil))
	}
	return nil
}

func asObjects[T apiserver.Object](in []T) []apiserver.Object {
	out := make([]apiserver.Object, len(in))
	for i, o := range in {
		out[i] = o
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
	// MaxUnavailable are set under RollingUpdate only, each an int32 or a
	// percent string as in the spec.
	Strategy                string `json:"strategy"`
	MaxSurge                any    `json:"maxSurge,omitempty"`
	MaxUnavailable          any    `json:"maxUnavailable,omitempty"`
	MinReadySeconds         int32  `json:"minReadySeconds"`
	ProgressDeadlineSeconds int32  `json:"progressDeadlineSeconds"`
	// Containers are the template's init containers (Init set) then its
	// containers, in template order.
	Containers []TargetContainer `json:"containers"`
}

// TargetContainer is one container of a Target's pod template. Its fields
// are plain values (quantities as kubectl prints them) so the bridge's JSON
// stays small.
type TargetContainer struct {
	Name  string `json:"name"`
	Image string `json:"image"`
	// Init marks an init container (a native sidecar when it restarts
	// Always).
	Init bool `json:"init,omitempty"`
	// Resources holds the container's requests and limits, if any.
	Resources *TargetResources `json:"resources,omitempty"`
	// Env lists the variables with a plain value.
	Env []TargetEnv `json:"env,omitempty"`
}

// TargetResources maps resource names to quantities as kubectl prints them
// ("250m", "64Mi").
type TargetResources struct {
	Requests map[string]string `json:"requests,omitempty"`
	Limits   map[string]string `json:"limits,omitempty"`
}

// TargetEnv is one environment variable with a plain value.
type TargetEnv struct {
	Name  string `json:"name"`
	Value string `json:"value"`
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
			t.MaxSurge, t.MaxUnavailable = intOrString(ru.MaxSurge), intOrString(ru.MaxUnavailable)
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
		tc.Resources = &TargetResources{Requests: quantities(c.Resources.Requests), Limits: quantities(c.Resources.Limits)}
	}
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			tc.Env = append(tc.Env, TargetEnv{Name: e.Name, Value: e.Value})
		}
	}
	return tc
}

func quantities(rl corev1.ResourceList) map[string]string {
	if len(rl) == 0 {
		return nil
	}
	out := make(map[string]string, len(rl))
	for name, q := range rl {
		out[string(name)] = q.String()
	}
	return out
}

// intOrString is v's value as a plain int32 or string; nil for nil.
func intOrString(v *intstr.IntOrString) any {
	switch {
	case v == nil:
		return nil
	case v.Type == intstr.String:
		return v.StrVal
	}
	return v.IntVal
}
