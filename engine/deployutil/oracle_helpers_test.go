package deployutil

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// oracleFile is one testdata/*.json file: outputs of the real upstream
// v1.36.3 functions (see /work/shared/oracle/README.md for provenance).
type oracleFile struct {
	Function    string       `json:"function"`
	Description string       `json:"description"`
	Cases       []oracleCase `json:"cases"`
}

type oracleCase struct {
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Expected json.RawMessage `json:"expected"`
	Origin   string          `json:"origin"`
	Note     string          `json:"note"`
}

// runOracle runs fn as a subtest per case of testdata/<file>.json and logs
// how many cases passed. fn decodes the case itself.
func runOracle(t *testing.T, file string, fn func(t *testing.T, c oracleCase)) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f oracleFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(f.Cases) == 0 {
		t.Fatalf("%s: no cases", file)
	}
	passed := 0
	for _, c := range f.Cases {
		if t.Run(c.Name, func(t *testing.T) { fn(t, c) }) {
			passed++
		}
	}
	t.Logf("oracle %s: %d/%d cases pass", file, passed, len(f.Cases))
}

// decode unmarshals raw into v or fails the test.
func decode(t testing.TB, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
}

// intOrString decodes an oracle maxSurge/maxUnavailable: int, "25%" or null.
func intOrString(t testing.TB, raw json.RawMessage) *intstr.IntOrString {
	t.Helper()
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		var str string
		decode(t, raw, &str)
		v := intstr.FromString(str)
		return &v
	}
	var n int32
	decode(t, raw, &n)
	v := intstr.FromInt32(n)
	return &v
}

// deploymentIn is the common deployment encoding of the oracle inputs.
type deploymentIn struct {
	Replicas       int32           `json:"replicas"`
	Strategy       string          `json:"strategy"`
	MaxSurge       json.RawMessage `json:"maxSurge"`
	MaxUnavailable json.RawMessage `json:"maxUnavailable"`
	Generation     int64           `json:"generation"`
}

func (in deploymentIn) build(t testing.TB) *appsv1.Deployment {
	t.Helper()
	return newDeployment(t, in.Replicas, in.Strategy, in.MaxSurge, in.MaxUnavailable)
}

func newDeployment(t testing.TB, replicas int32, strategy string, surge, unavail json.RawMessage) *appsv1.Deployment {
	t.Helper()
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "foo", Namespace: "default", UID: "uid-foo"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Template: podTemplate("nginx", ""),
		},
	}
	switch strategy {
	case "", "RollingUpdate":
		d.Spec.Strategy = appsv1.DeploymentStrategy{
			Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{
				MaxSurge:       intOrString(t, surge),
				MaxUnavailable: intOrString(t, unavail),
			},
		}
	default:
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.DeploymentStrategyType(strategy)}
	}
	return d
}

// rsIn is the oracle ReplicaSet encoding.
type rsIn struct {
	Name                 string            `json:"name"`
	Replicas             int32             `json:"replicas"`
	CreationTimestamp    string            `json:"creationTimestamp"`
	Annotations          map[string]string `json:"annotations"`
	DeletionTimestampSet bool              `json:"deletionTimestampSet"`
	Generation           int64             `json:"generation"`
	Template             string            `json:"template"`
	PodTemplateHashLabel string            `json:"podTemplateHashLabel"`
	Status               struct {
		Replicas           int32 `json:"replicas"`
		AvailableReplicas  int32 `json:"availableReplicas"`
		ReadyReplicas      int32 `json:"readyReplicas"`
		ObservedGeneration int64 `json:"observedGeneration"`
	} `json:"status"`
}

func (in *rsIn) build(t *testing.T) *appsv1.ReplicaSet {
	t.Helper()
	if in == nil {
		return nil
	}
	n := in.Replicas
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: in.Name, Namespace: "default", UID: types.UID("uid-" + in.Name),
			CreationTimestamp: metav1.NewTime(parseTime(t, in.CreationTimestamp)),
			Generation:        in.Generation,
		},
		Spec: appsv1.ReplicaSetSpec{Replicas: &n},
		Status: appsv1.ReplicaSetStatus{
			Replicas: in.Status.Replicas, AvailableReplicas: in.Status.AvailableReplicas,
			ReadyReplicas: in.Status.ReadyReplicas, ObservedGeneration: in.Status.ObservedGeneration,
		},
	}
	if in.Annotations != nil {
		rs.Annotations = make(map[string]string, len(in.Annotations))
		for k, v := range in.Annotations {
			rs.Annotations[k] = v
		}
	}
	if in.DeletionTimestampSet {
		ts := metav1.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
		rs.DeletionTimestamp = &ts
	}
	if in.Template != "" {
		rs.Spec.Template = podTemplate(in.Template, in.PodTemplateHashLabel)
	}
	return rs
}

func buildRSs(t *testing.T, ins []rsIn) []*appsv1.ReplicaSet {
	t.Helper()
	out := make([]*appsv1.ReplicaSet, 0, len(ins))
	for i := range ins {
		out = append(out, ins[i].build(t))
	}
	return out
}

// podTemplate is an opaque template identity: the image is the identity, the
// hash label (if any) must be ignored by comparisons.
func podTemplate(image, hash string) corev1.PodTemplateSpec {
	labels := map[string]string{"app": "foo"}
	if hash != "" {
		labels[DefaultPodTemplateHashLabel] = hash
	}
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}},
	}
}

// parseTime parses RFC3339 (nanoseconds allowed); "" is the zero time.
func parseTime(t *testing.T, s string) time.Time {
	t.Helper()
	if s == "" {
		return time.Time{}
	}
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("time %q: %v", s, err)
	}
	return ts
}

// updateOut is the oracle encoding of one RS Update call.
type updateOut struct {
	Name     string `json:"name"`
	Replicas int32  `json:"replicas"`
	Desired  string `json:"desiredReplicasAnnotation"`
	Max      string `json:"maxReplicasAnnotation"`
}

// checkWrites compares planned writes with the oracle's update calls.
func checkWrites(t *testing.T, got []RSWrite, want []updateOut) {
	t.Helper()
	g := make([]updateOut, len(got))
	for i, w := range got {
		g[i] = updateOut{Name: w.Name, Replicas: w.Replicas, Desired: w.DesiredAnnotation, Max: w.MaxAnnotation}
	}
	if len(want) == 0 && len(g) == 0 {
		return
	}
	gj, _ := json.Marshal(g)
	wj, _ := json.Marshal(want)
	if string(gj) != string(wj) {
		t.Errorf("writes:\n got %s\nwant %s", gj, wj)
	}
}

// checkFinal applies the writes to the initial sizes and compares with the
// oracle's final_replicas.
func checkFinal(t *testing.T, initial []*appsv1.ReplicaSet, writes []RSWrite, want map[string]int32) {
	t.Helper()
	got := map[string]int32{}
	for _, rs := range initial {
		if rs != nil {
			got[rs.Name] = *rs.Spec.Replicas
		}
	}
	for _, w := range writes {
		got[w.Name] = w.Replicas
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("final %s = %d, want %d", k, got[k], want[k])
		}
	}
}

func names(rss []*appsv1.ReplicaSet) []string {
	out := []string{}
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}

func int32p(v int32) *int32 { return &v }
