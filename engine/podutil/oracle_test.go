package podutil

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// oracleFile is the shape shared by every oracle case file.
type oracleFile[In, Want any] struct {
	Function    string `json:"function"`
	Description string `json:"description"`
	Cases       []struct {
		Name     string `json:"name"`
		Input    In     `json:"input"`
		Expected Want   `json:"expected"`
		Origin   string `json:"origin"`
	} `json:"cases"`
}

func loadOracle[In, Want any](t testing.TB, name string) oracleFile[In, Want] {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var f oracleFile[In, Want]
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(f.Cases) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return f
}

// oraclePod is the oracle's pod encoding (see testdata/*.json descriptions).
type oraclePod struct {
	Name                   string            `json:"name"`
	UID                    string            `json:"uid"`
	NodeName               string            `json:"nodeName"`
	Phase                  string            `json:"phase"`
	Ready                  *bool             `json:"ready"`
	ReadyCondition         string            `json:"readyCondition"`
	ReadySince             string            `json:"readySince"`
	CreationTimestamp      string            `json:"creationTimestamp"`
	ContainerRestartCounts []int32           `json:"containerRestartCounts"`
	SidecarRestartCount    *int32            `json:"sidecarRestartCount"`
	PodDeletionCost        *string           `json:"podDeletionCost"`
	Labels                 map[string]string `json:"labels"`
}

// parseTime reads an oracle timestamp: "" is the zero time; anything after
// the RFC3339 value (e.g. " (approx; ...)") is ignored.
func parseTime(t testing.TB, s string) time.Time {
	t.Helper()
	if s == "" {
		return time.Time{}
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("bad time %q: %v", s, err)
	}
	return v
}

func (o oraclePod) toPod(t testing.TB) *corev1.Pod {
	t.Helper()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "default", Name: o.Name, UID: types.UID(o.UID), Labels: o.Labels,
			CreationTimestamp: metav1.NewTime(parseTime(t, o.CreationTimestamp)),
		},
		Spec:   corev1.PodSpec{NodeName: o.NodeName},
		Status: corev1.PodStatus{Phase: corev1.PodPhase(o.Phase)},
	}
	if o.PodDeletionCost != nil {
		p.Annotations = map[string]string{DeletionCostAnnotation: *o.PodDeletionCost}
	}
	status := corev1.ConditionStatus(o.ReadyCondition)
	if o.Ready != nil {
		status = corev1.ConditionFalse
		if *o.Ready {
			status = corev1.ConditionTrue
		}
	}
	if status != "" {
		p.Status.Conditions = []corev1.PodCondition{{
			Type: corev1.PodReady, Status: status,
			LastTransitionTime: metav1.NewTime(parseTime(t, o.ReadySince)),
		}}
	}
	for i, n := range o.ContainerRestartCounts {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses,
			corev1.ContainerStatus{Name: "c" + string(rune('0'+i)), RestartCount: n})
	}
	if o.SidecarRestartCount != nil {
		always := corev1.ContainerRestartPolicyAlways
		p.Spec.InitContainers = []corev1.Container{{Name: "sidecar", RestartPolicy: &always}}
		p.Status.InitContainerStatuses = []corev1.ContainerStatus{{Name: "sidecar", RestartCount: *o.SidecarRestartCount}}
	}
	return p
}

func toPods(t testing.TB, in []oraclePod) []*corev1.Pod {
	out := make([]*corev1.Pod, 0, len(in))
	for _, o := range in {
		out = append(out, o.toPod(t))
	}
	return out
}

func podNames(pods []*corev1.Pod) []string {
	names := make([]string, 0, len(pods))
	for _, p := range pods {
		names = append(names, p.Name)
	}
	return names
}
