package scenario

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/kubectl"
)

// decodeEditFields reads the fields of the Deployment edit actions
// (setRollingUpdate, setStrategy, setMinReadySeconds, setProgressDeadline,
// setResources, setEnv). Values kubectl would send as they are (a percent
// string, a negative number of seconds, a strategy name) are kept for the
// API server to judge; only what kubectl refuses itself (a malformed
// quantity, a value of the wrong type) is an error here.
func (r *docReader) decodeEditFields(n *node, m map[string]field, path string, spec actionSpec, a *Action) {
	for _, k := range sortedKeys(m) {
		if !contains(spec.required, k) && !contains(spec.optional, k) {
			continue
		}
		v, p := m[k].value, join(path, k)
		switch k {
		case "maxSurge":
			a.MaxSurge = r.intOrString(v, p)
		case "maxUnavailable":
			a.MaxUnavailable = r.intOrString(v, p)
		case "strategy":
			st, _ := r.str(v, p)
			a.Strategy = appsv1.DeploymentStrategyType(st)
		case "minReadySeconds":
			a.MinReadySeconds = r.int32(v, p)
		case "progressDeadlineSeconds":
			a.ProgressDeadlineSeconds = r.int32(v, p)
		case "resources":
			a.Resources = r.resources(v, p)
		case "env":
			a.Env = r.envChanges(v, p)
		}
	}
	if a.Type == ActionSetRollingUpdate && m["maxSurge"].key == nil && m["maxUnavailable"].key == nil {
		r.errorf(n, join(path, "maxSurge"), "one of maxSurge and maxUnavailable is required for action setRollingUpdate")
	}
}

// int32 reads any 32-bit integer.
func (r *docReader) int32(n *node, path string) int32 {
	v, _ := r.integer(n, path, -1<<31, 1<<31-1)
	return int32(v)
}

// intOrString reads an integer or a string (maxSurge, maxUnavailable).
func (r *docReader) intOrString(n *node, path string) *intstr.IntOrString {
	s, ok := r.scalar(n, path, `an integer or a percentage like "25%"`)
	if !ok {
		return nil
	}
	switch s.Tag {
	case tagInt:
		v, err := strconv.ParseInt(s.Value, 10, 32)
		if err != nil {
			r.errorf(s, path, "invalid value "+s.Value+": must be a 32-bit integer")
			return nil
		}
		out := intstr.FromInt32(int32(v))
		return &out
	case tagStr:
		out := intstr.FromString(s.Value)
		return &out
	}
	r.errorf(s, path, "invalid value "+valueText(s)+`: must be an integer or a percentage like "25%"`)
	return nil
}

// resources reads {requests: {cpu: 250m}, limits: {memory: 64Mi}}.
func (r *docReader) resources(n *node, path string) *corev1.ResourceRequirements {
	m, ok := r.mapping(n, path, []string{"requests", "limits"})
	if !ok {
		return nil
	}
	if len(m) == 0 {
		r.errorf(resolve(n), path, "expected requests and/or limits")
		return nil
	}
	out := &corev1.ResourceRequirements{}
	read := func(key string) corev1.ResourceList {
		f, ok := m[key]
		if !ok {
			return nil
		}
		p := join(path, key)
		items, ok := r.mapping(f.value, p, nil)
		if !ok {
			return nil
		}
		list := corev1.ResourceList{}
		for _, name := range sortedKeys(items) {
			qp := join(p, name)
			s, ok := r.scalar(items[name].value, qp, `a quantity like "250m" or "64Mi"`)
			if !ok {
				continue
			}
			q, err := resource.ParseQuantity(s.Value)
			if err != nil {
				r.errorf(s, qp, "invalid value "+strconv.Quote(s.Value)+": "+err.Error())
				continue
			}
			list[corev1.ResourceName(name)] = q
		}
		return list
	}
	out.Requests, out.Limits = read("requests"), read("limits")
	return out
}

// envChanges reads {NAME: value, OLD: null}: null removes the variable.
func (r *docReader) envChanges(n *node, path string) []kubectl.EnvChange {
	m, ok := r.mapping(n, path, nil)
	if !ok {
		return nil
	}
	if len(m) == 0 {
		r.errorf(resolve(n), path, "expected at least one variable: NAME: value (null removes it)")
		return nil
	}
	var out []kubectl.EnvChange
	for _, name := range sortedKeys(m) {
		v := resolve(m[name].value)
		if v != nil && v.Kind == scalarNode && v.Tag == tagNull {
			out = append(out, kubectl.EnvChange{Name: name, Remove: true})
			continue
		}
		if s, ok := r.str(v, join(path, name)); ok {
			out = append(out, kubectl.EnvChange{Name: name, Value: s})
		}
	}
	return out
}
