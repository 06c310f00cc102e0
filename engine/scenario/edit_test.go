package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

// timelineDoc wraps timeline entries (YAML flow mappings, one per line) in a
// Scenario document.
func timelineDoc(entries ...string) string {
	s := "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  timeline:\n"
	for _, e := range entries {
		s += "  - " + e + "\n"
	}
	return s
}

// TestEditActionsParse checks each Deployment edit action's fields as the
// parser hands them on (JSON of the parsed action), and the errors it
// reports itself; values the API server judges pass through.
func TestEditActionsParse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{at: 1s, action: setRollingUpdate, target: deploy/web, namespace: shop, maxSurge: "50%", maxUnavailable: 0}`,
			`"type":"setRollingUpdate","namespace":"shop","target":{"kind":"deployment","name":"web"},"maxSurge":"50%","maxUnavailable":0`},
		{`{at: 1s, action: setRollingUpdate, target: deploy/web, maxSurge: "3x"}`, `"maxSurge":"3x"`},
		{`{at: 1s, action: setStrategy, target: deploy/web, strategy: Recreate}`, `"strategy":"Recreate"`},
		{`{at: 1s, action: setStrategy, target: deploy/web, strategy: RollingUpdate, maxSurge: 1}`, `"maxSurge":1,"strategy":"RollingUpdate"`},
		{`{at: 1s, action: setMinReadySeconds, target: deploy/web, minReadySeconds: -5}`, `"minReadySeconds":-5`},
		{`{at: 1s, action: setProgressDeadline, target: deploy/web, progressDeadlineSeconds: 120}`, `"progressDeadlineSeconds":120`},
		{`{at: 1s, action: setResources, target: deploy/web, container: app, resources: {requests: {cpu: 250m}, limits: {memory: 64Mi, cpu: 1}}}`,
			`"container":"app","resources":{"limits":{"cpu":"1","memory":"64Mi"},"requests":{"cpu":"250m"}}`},
		{`{at: 1s, action: setEnv, target: deploy/web, env: {Z: "1", A: null, M: 3}}`,
			`"env":[{"name":"A","remove":true},{"name":"M","value":"3"},{"name":"Z","value":"1"}]`},
		{`{when: {rolloutComplete: {target: deployment/web, namespace: shop}}, action: pause, target: deployment/web, namespace: shop}`,
			`"when":{"type":"rolloutComplete","target":{"kind":"deployment","name":"web"},"namespace":"shop"}`},
	} {
		s, err := Parse("t.yaml", []byte(timelineDoc(tc.in)))
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		b, _ := json.Marshal(s.Timeline[0])
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("%s:\n got %s\nwant it to contain %s", tc.in, b, tc.want)
		}
	}
}

func TestEditActionsParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{at: 1s, action: setRollingUpdate, target: deploy/web}`, "spec.timeline[0].maxSurge: one of maxSurge and maxUnavailable is required for action setRollingUpdate"},
		{`{at: 1s, action: setRollingUpdate, target: deploy/web, maxSurge: true}`, `spec.timeline[0].maxSurge: invalid value true: must be an integer or a percentage like "25%"`},
		{`{at: 1s, action: setRollingUpdate, target: deploy/web, maxSurge: 99999999999}`, "must be a 32-bit integer"},
		{`{at: 1s, action: setStrategy, target: deploy/web}`, "spec.timeline[0].strategy: required field is missing for action setStrategy"},
		{`{at: 1s, action: setMinReadySeconds, target: deploy/web, minReadySeconds: "10"}`, "spec.timeline[0].minReadySeconds: invalid value \"10\": must be an integer"},
		{`{at: 1s, action: setResources, target: deploy/web, resources: {requests: {cpu: lots}}}`, "spec.timeline[0].resources.requests.cpu: invalid value \"lots\": quantities must match the regular expression"},
		{`{at: 1s, action: setResources, target: deploy/web, resources: {cpus: {}}}`, "spec.timeline[0].resources.cpus: unknown field"},
		{`{at: 1s, action: setEnv, target: deploy/web, env: {}}`, "spec.timeline[0].env: expected at least one variable"},
		{`{at: 1s, action: setEnv, target: deploy/web, env: [A]}`, "spec.timeline[0].env: expected a mapping"},
		{`{at: 1s, action: setImage, target: shop/web, image: x:1}`, `spec.timeline[0].target: invalid value "shop/web": the kind must be deployment (to name a namespace, write target: deployment/web and namespace: shop)`},
		{`{at: 1s, action: setEnv, target: deploy/web, env: {A: "1"}, image: x}`, "spec.timeline[0].image: field is not used by action setEnv"},
	} {
		_, err := Parse("t.yaml", []byte(timelineDoc(tc.in)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant it to contain %s", tc.in, err, tc.want)
		}
	}
}
