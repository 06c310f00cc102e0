package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// ErrBadAction is returned for a user action that is not a JSON object.
var ErrBadAction = errors.New("an action is a JSON object with a \"type\" field")

// ParseUserAction reads a user action written like a timeline entry
// ({"type": "scale", "target": "deployment/web", "replicas": 12}), validated
// by the scenario parser itself so that user actions and timeline entries
// accept exactly the same things with the same error messages.
func (s *Session) ParseUserAction(raw []byte) (scenario.Action, error) {
	// Raw values keep numbers as written (an int64 revision is not rounded
	// through a float on its way to the parser).
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return scenario.Action{}, ErrBadAction
	}
	var t string
	if err := json.Unmarshal(fields["type"], &t); err != nil || t == "" {
		return scenario.Action{}, ErrBadAction
	}
	delete(fields, "type")
	fields["action"], _ = json.Marshal(t)
	fields["at"] = json.RawMessage(`"0s"`)
	entry, err := json.Marshal(fields)
	if err != nil {
		return scenario.Action{}, err
	}
	nodes, _ := json.Marshal(s.scen.Cluster.Nodes)
	doc := "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: user-action}\nspec:\n  cluster: {nodes: " +
		string(nodes) + "}\n  timeline:\n  - " + string(entry) + "\n"
	scen, err := scenario.Parse("action", []byte(doc))
	if err != nil {
		var msgs []string
		for _, e := range scenario.Errors(err) {
			field := strings.TrimPrefix(e.Field, "spec.timeline[0].")
			if field == "spec.timeline[0]" {
				field = ""
			}
			if field != "" {
				msgs = append(msgs, field+": "+e.Message)
			} else {
				msgs = append(msgs, e.Message)
			}
		}
		return scenario.Action{}, fmt.Errorf("invalid %s action: %s", t, strings.Join(msgs, "; "))
	}
	a := scen.Timeline[0]
	// The pod limit the scenario loaded under holds for what the user asks
	// later too: a scale past it could only stop at the limit, after a
	// great deal of work (a million replicas ran 28,593 steps to fail).
	tooMany := func(field string, replicas int32) error {
		return fmt.Errorf("invalid %s action: %s: %d replicas need more pods than the pod limit, %d (spec.limits.maxPods); ask for fewer replicas",
			t, field, replicas, s.scen.Limits.MaxPods)
	}
	if a.Type == scenario.ActionScale && int(a.Replicas) > s.scen.Limits.MaxPods {
		return scenario.Action{}, tooMany("replicas", a.Replicas)
	}
	// The objects of one apply together (two Deployments of 6,000 ask for
	// 12,000 pods).
	total := 0
	for _, o := range a.Manifest {
		replicas := scenario.ReplicasOf(o)
		if replicas == nil {
			continue
		}
		if total += int(*replicas); total > s.scen.Limits.MaxPods {
			return scenario.Action{}, tooMany(fmt.Sprintf("manifest line %d: spec.replicas", o.FieldLine("spec.replicas")), int32(min(total, math.MaxInt32)))
		}
	}
	return a, nil
}
