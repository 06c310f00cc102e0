package compare

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// Override sets one field of one Deployment of a scenario, as the CLI's
// --set writes it: "spec.strategy.rollingUpdate.maxSurge=100%" (the first
// Deployment) or "deployment/web:spec.replicas=12". Path segments are field
// names as in YAML, with [i] for a list element
// ("spec.template.spec.containers[1].image=app:2").
type Override struct {
	// Target is the Deployment's name; "" for the scenario's first.
	Target string
	Path   []string
	// Value is an integer, a boolean or a string ("100%", "nginx:1.26");
	// a value in double quotes is always a string.
	Value any
}

// ParseOverride reads one --set argument.
func ParseOverride(s string) (Override, error) {
	var o Override
	spec := s
	if strings.HasPrefix(s, "deployment/") || strings.HasPrefix(s, "deploy/") || strings.HasPrefix(s, "deployments/") {
		target, rest, ok := strings.Cut(s, ":")
		if !ok {
			return o, fmt.Errorf("--set %s: want deployment/NAME:path=value", s)
		}
		_, o.Target, _ = strings.Cut(target, "/")
		spec = rest
	}
	path, value, ok := strings.Cut(spec, "=")
	if !ok || path == "" {
		return o, fmt.Errorf("--set %s: want path=value, e.g. spec.strategy.rollingUpdate.maxSurge=100%%", s)
	}
	for _, seg := range strings.Split(path, ".") {
		name, idx, hasIdx := strings.Cut(seg, "[")
		if name == "" {
			return o, fmt.Errorf("--set %s: empty field name in %q", s, path)
		}
		o.Path = append(o.Path, name)
		if hasIdx {
			i, err := strconv.Atoi(strings.TrimSuffix(idx, "]"))
			if err != nil || !strings.HasSuffix(idx, "]") || i < 0 {
				return o, fmt.Errorf("--set %s: bad list index in %q", s, seg)
			}
			o.Path = append(o.Path, "["+strconv.Itoa(i)+"]")
		}
	}
	o.Value = parseValue(value)
	return o, nil
}

func parseValue(v string) any {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	if b, err := strconv.ParseBool(v); err == nil && (v == "true" || v == "false") {
		return b
	}
	return v
}

// String renders the override as it was written.
func (o Override) String() string {
	p := strings.ReplaceAll(strings.Join(o.Path, "."), ".[", "[")
	s := fmt.Sprintf("%s=%v", p, o.Value)
	if o.Target != "" {
		s = "deployment/" + o.Target + ":" + s
	}
	return s
}

// ApplyOverrides changes the Deployments of scen in place. The result is
// checked by the API server when a session is built from it, as any file.
func ApplyOverrides(scen *scenario.Scenario, overrides []Override) error {
	for _, o := range overrides {
		i, err := findDeployment(scen, o.Target)
		if err != nil {
			return fmt.Errorf("--set %s: %w", o, err)
		}
		d := scen.Objects[i].Obj.(*appsv1.Deployment)
		raw, err := json.Marshal(d)
		if err != nil {
			return err
		}
		var tree any
		if err := json.Unmarshal(raw, &tree); err != nil {
			return err
		}
		if tree, err = set(tree, o.Path, o.Value); err != nil {
			return fmt.Errorf("--set %s: %w", o, err)
		}
		raw, _ = json.Marshal(tree)
		var out appsv1.Deployment
		if err := json.Unmarshal(raw, &out); err != nil {
			return fmt.Errorf("--set %s: %w", o, err)
		}
		scen.Objects[i].Obj = &out
	}
	return nil
}

func findDeployment(scen *scenario.Scenario, name string) (int, error) {
	for i, obj := range scen.Objects {
		if d, ok := obj.Obj.(*appsv1.Deployment); ok && (name == "" || d.Name == name) {
			return i, nil
		}
	}
	if name == "" {
		return 0, fmt.Errorf("the file has no Deployment")
	}
	return 0, fmt.Errorf("no deployment/%s in the file", name)
}

// set writes value at path in a JSON tree, creating missing objects.
func set(node any, path []string, value any) (any, error) {
	if len(path) == 0 {
		return value, nil
	}
	seg := path[0]
	if strings.HasPrefix(seg, "[") {
		list, ok := node.([]any)
		i, _ := strconv.Atoi(strings.Trim(seg, "[]"))
		if !ok || i >= len(list) {
			return nil, fmt.Errorf("no element %s", seg)
		}
		v, err := set(list[i], path[1:], value)
		if err != nil {
			return nil, err
		}
		list[i] = v
		return list, nil
	}
	m, ok := node.(map[string]any)
	if node == nil {
		m, ok = map[string]any{}, true
	}
	if !ok {
		return nil, fmt.Errorf("%s is not an object", seg)
	}
	v, err := set(m[seg], path[1:], value)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", seg, err)
	}
	m[seg] = v
	return m, nil
}
