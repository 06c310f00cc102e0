package apiserver

import (
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TestSemanticEqualMatchesApimachinery checks semanticEqual against
// equality.Semantic.DeepEqual on pairs that exercise each of its rules; both
// must agree, and the table records which answer that is.
func TestSemanticEqualMatchesApimachinery(t *testing.T) {
	base := func() *corev1.Pod {
		p := testPod("default", "web-1", map[string]string{"app": "web"})
		p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
			LastTransitionTime: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}}
		return p
	}
	utcPlus2 := time.FixedZone("UTC+2", 2*3600)
	cases := []struct {
		name   string
		mutate func(p *corev1.Pod)
		want   bool
	}{
		{"identical copy", func(*corev1.Pod) {}, true},
		{"nil vs empty labels", func(p *corev1.Pod) { p.Annotations = map[string]string{} }, true},
		{"nil vs empty slice", func(p *corev1.Pod) { p.Finalizers = []string{} }, true},
		{"quantity 1 vs 1000m", func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("1000m")
		}, true},
		{"quantity 1 vs 2", func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("2")
		}, false},
		{"same instant, other zone", func(p *corev1.Pod) {
			c := &p.Status.Conditions[0]
			c.LastTransitionTime = metav1.NewTime(c.LastTransitionTime.In(utcPlus2))
		}, true},
		{"later instant", func(p *corev1.Pod) {
			c := &p.Status.Conditions[0]
			c.LastTransitionTime = metav1.NewTime(c.LastTransitionTime.Add(time.Second))
		}, false},
		{"status phase", func(p *corev1.Pod) { p.Status.Phase = corev1.PodRunning }, false},
		{"node name", func(p *corev1.Pod) { p.Spec.NodeName = "node-1" }, false},
		{"label value", func(p *corev1.Pod) { p.Labels["app"] = "api" }, false},
		{"extra label", func(p *corev1.Pod) { p.Labels["tier"] = "x" }, false},
		{"nil vs set pointer", func(p *corev1.Pod) { g := int64(30); p.Spec.TerminationGracePeriodSeconds = &g }, false},
		{"deletion timestamp", func(p *corev1.Pod) { ts := metav1.NewTime(time.Unix(5, 0)); p.DeletionTimestamp = &ts }, false},
		{"owner reference", func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "web", UID: "u1"}}
		}, false},
		{"container added", func(p *corev1.Pod) { p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "b"}) }, false},
		{"managed fields raw", func(p *corev1.Pod) {
			p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m", FieldsV1: &metav1.FieldsV1{Raw: []byte("{}")}}}
		}, false},
	}
	for _, c := range cases {
		a, b := base(), base()
		c.mutate(b)
		upstream := equality.Semantic.DeepEqual(a, b)
		if upstream != c.want {
			t.Fatalf("%s: apimachinery says %v, the table %v", c.name, upstream, c.want)
		}
		if got := semanticEqual(a, b); got != upstream {
			t.Errorf("%s: semanticEqual = %v, equality.Semantic.DeepEqual = %v", c.name, got, upstream)
		}
		if got := semanticEqual(b, a); got != upstream {
			t.Errorf("%s (swapped): semanticEqual = %v, want %v", c.name, got, upstream)
		}
	}

	d1 := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Strategy: appsv1.DeploymentStrategy{
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: ptrTo(intstr.FromString("25%"))}}}}
	d2 := d1.DeepCopy()
	d2.Spec.Strategy.RollingUpdate.MaxSurge = ptrTo(intstr.FromInt32(1))
	if semanticEqual(d1, d2) != equality.Semantic.DeepEqual(d1, d2) || semanticEqual(d1, d1.DeepCopy()) != true {
		t.Error("IntOrString comparison disagrees with apimachinery")
	}
	if semanticEqual(d1, testPod("default", "x", nil)) {
		t.Error("objects of different types compared equal")
	}
}

// TestUnchangedMatchesWholeObjectComparison replays writes through the
// server and checks, for every write, that the no-op decision equals a
// whole-object equality.Semantic.DeepEqual.
func TestUnchangedMatchesWholeObjectComparison(t *testing.T) {
	e := newTestEnv()
	p, err := e.srv.CreatePod("test", testPod("default", "web-1", map[string]string{"app": "web"}))
	if err != nil {
		t.Fatal(err)
	}
	check := func(label string, in *corev1.Pod, mode updateMode) {
		t.Helper()
		old, _ := e.srv.GetPod("default", "web-1")
		obj := copyForWrite(in, mode)
		obj.SetNamespace("default")
		// Run the strategy the way commitUpdate does, then compare.
		st := strategies[Pods]
		obj.SetUID(old.GetUID())
		obj.SetResourceVersion(old.GetResourceVersion())
		obj.SetCreationTimestamp(old.GetCreationTimestamp())
		obj.SetGenerateName(old.GetGenerateName())
		if mode == modeStatus {
			st.prepareStatus(obj, old)
		} else {
			st.prepareUpdate(obj, old)
		}
		if got, want := unchanged(obj, old, mode), equality.Semantic.DeepEqual(obj, old); got != want {
			t.Errorf("%s: unchanged = %v, whole-object comparison = %v", label, got, want)
		}
	}
	same := p.DeepCopy()
	check("status rewrite, no change", same, modeStatus)
	check("spec rewrite, no change", same, modeUpdate)
	running := p.DeepCopy()
	running.Status.Phase = corev1.PodRunning
	check("status change", running, modeStatus)
	check("status change sent as spec write", running, modeUpdate)
	relabel := p.DeepCopy()
	relabel.Labels = map[string]string{"app": "other"}
	check("label change sent as status write", relabel, modeStatus)
	check("label change", relabel, modeUpdate)
	annotated := p.DeepCopy()
	annotated.Annotations = map[string]string{"a": "b"}
	check("annotation via status", annotated, modeStatus)
	image := p.DeepCopy()
	image.Spec.Containers[0].Image = "nginx:1.28"
	check("image change", image, modeUpdate)
	check("image change sent as status write", image, modeStatus)
	// The plain fields podWriteDiffers reads, one at a time, and a status
	// equal to the stored one but for nil against empty slices.
	conds := p.DeepCopy()
	conds.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	check("condition added", conds, modeStatus)
	reason := conds.DeepCopy()
	reason.Status.Conditions[0].Reason = "ContainersNotReady"
	check("condition reason", reason, modeStatus)
	statuses := p.DeepCopy()
	statuses.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", Ready: true}}
	check("container status added", statuses, modeStatus)
	restarted := statuses.DeepCopy()
	restarted.Status.ContainerStatuses[0].RestartCount = 1
	check("restart count", restarted, modeStatus)
	ip := p.DeepCopy()
	ip.Status.PodIP = "10.244.1.7"
	check("pod IP", ip, modeStatus)
	empty := p.DeepCopy()
	empty.Status.Conditions = []corev1.PodCondition{}
	empty.Status.ContainerStatuses = []corev1.ContainerStatus{}
	check("empty slices for nil", empty, modeStatus)
	bound := p.DeepCopy()
	bound.Spec.NodeName = "node-1"
	check("node name sent as status write", bound, modeStatus)
}

// TestMetaIdenticalChecksEveryField fails when metav1.ObjectMeta gains a
// field that metaIdentical does not check.
func TestMetaIdenticalChecksEveryField(t *testing.T) {
	want := []string{"Name", "GenerateName", "Namespace", "SelfLink", "UID", "ResourceVersion", "Generation",
		"CreationTimestamp", "DeletionTimestamp", "DeletionGracePeriodSeconds", "Labels", "Annotations",
		"OwnerReferences", "Finalizers", "ManagedFields"}
	if got := fieldNames(reflect.TypeOf(metav1.ObjectMeta{})); !reflect.DeepEqual(got, want) {
		t.Errorf("ObjectMeta has fields %v; metaIdentical checks %v", got, want)
	}
}

func TestMetaEqualAgreesWithSemanticEqual(t *testing.T) {
	ts := metav1.NewTime(time.Unix(100, 0))
	grace := int64(30)
	base := metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "u", ResourceVersion: "7", Generation: 2,
		CreationTimestamp: ts, DeletionTimestamp: &ts, DeletionGracePeriodSeconds: &grace,
		Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"a": "b"},
		OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "rs", UID: "o"}}, Finalizers: []string{"f"}}
	same := base
	if !metaIdentical(&same, &base) || !metaEqual(&same, &base) {
		t.Fatal("a shallow copy must be identical and equal")
	}
	edits := []func(m *metav1.ObjectMeta){
		func(m *metav1.ObjectMeta) { m.Generation++ },
		func(m *metav1.ObjectMeta) { m.Labels = map[string]string{"app": "web"} },
		func(m *metav1.ObjectMeta) { m.Labels = map[string]string{"app": "db"} },
		func(m *metav1.ObjectMeta) { m.Annotations = nil },
		func(m *metav1.ObjectMeta) { m.Finalizers = []string{"f"} },
		func(m *metav1.ObjectMeta) { m.Finalizers = nil },
		func(m *metav1.ObjectMeta) { t2 := ts; m.DeletionTimestamp = &t2 },
		func(m *metav1.ObjectMeta) { m.DeletionTimestamp = nil },
		func(m *metav1.ObjectMeta) { g := int64(30); m.DeletionGracePeriodSeconds = &g },
		func(m *metav1.ObjectMeta) { m.CreationTimestamp = metav1.NewTime(ts.In(time.FixedZone("x", 3600))) },
		func(m *metav1.ObjectMeta) {
			m.OwnerReferences = append([]metav1.OwnerReference(nil), m.OwnerReferences...)
		},
	}
	for i, edit := range edits {
		m := base
		edit(&m)
		if got, want := metaEqual(&m, &base), semanticEqual(&m, &base); got != want {
			t.Errorf("edit %d: metaEqual = %v, semanticEqual = %v", i, got, want)
		}
	}
	var empty1, empty2 metav1.ObjectMeta
	empty2.Labels, empty2.Finalizers = map[string]string{}, []string{}
	if !metaIdentical(&empty1, &empty2) {
		t.Error("nil and empty maps and slices are identical")
	}
}
