package apiserver

import (
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

func testPod(ns, name string, lbl map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbl},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:1.27"}}},
	}
}

// TestImageTag checks the worked examples in imageTag's doc comment.
func TestImageTag(t *testing.T) {
	for in, want := range map[string]string{
		"nginx": "latest", "nginx:1.27": "1.27", "registry:5000/app": "latest",
		"nginx@sha256:ab": "", "nginx:latest": "latest", "registry:5000/app:v2": "v2",
	} {
		if got := imageTag(in); got != want {
			t.Errorf("imageTag(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGenerateNameAndUID(t *testing.T) {
	e := newTestEnv()
	long := strings.Repeat("a", 70) + "-"
	p := testPod("default", "", nil)
	p.GenerateName = long
	out, err := e.srv.CreatePod("kubectl", p)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^a{58}[bcdfghjklmnpqrstvwxz2456789]{5}$`).MatchString(out.Name) {
		t.Fatalf("generated name %q", out.Name)
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(string(out.UID)) {
		t.Fatalf("uid %q", out.UID)
	}
	// Same seed, same sequence: names and UIDs are reproducible.
	e2 := newTestEnv()
	out2, _ := e2.srv.CreatePod("kubectl", p)
	if out2.Name != out.Name || out2.UID != out.UID {
		t.Fatal("not deterministic")
	}
	if p.Name != "" || p.UID != "" || p.ResourceVersion != "" {
		t.Fatal("create modified its input")
	}
}

func TestReturnedObjectsAreSnapshots(t *testing.T) {
	e := newTestEnv()
	v1, _ := e.srv.CreatePod("kubectl", testPod("default", "p", nil))
	upd := v1.DeepCopy()
	upd.Labels = map[string]string{"x": "y"}
	v2, err := e.srv.UpdatePod("kubectl", upd)
	if err != nil {
		t.Fatal(err)
	}
	if v1.Labels != nil || v1.ResourceVersion != "1" {
		t.Fatal("a write changed a previously returned object")
	}
	if got, _ := e.srv.GetPod("default", "p"); got != v2 {
		t.Fatal("Get does not return the stored pointer")
	}
	if ev := e.srv.WatchLog()[0]; ev.Object != v1 {
		t.Fatal("watch log does not hold the snapshot")
	}
}

func TestListSortedAndFiltered(t *testing.T) {
	e := newTestEnv()
	for _, k := range []string{"b/p2", "a/p9", "b/p1", "c/p1", "a/p1"} {
		ns, name, _ := strings.Cut(k, "/")
		if _, err := e.srv.CreatePod("kubectl", testPod(ns, name, map[string]string{"ns": ns})); err != nil {
			t.Fatal(err)
		}
	}
	names := func(ps []*corev1.Pod) string {
		var s []string
		for _, p := range ps {
			s = append(s, p.Namespace+"/"+p.Name)
		}
		return strings.Join(s, " ")
	}
	if got := names(e.srv.ListPods("", nil)); got != "a/p1 a/p9 b/p1 b/p2 c/p1" {
		t.Errorf("all: %s", got)
	}
	if got := names(e.srv.ListPods("b", nil)); got != "b/p1 b/p2" {
		t.Errorf("ns b: %s", got)
	}
	if got := names(e.srv.ListPods("", labels.SelectorFromSet(labels.Set{"ns": "c"}))); got != "c/p1" {
		t.Errorf("selector: %s", got)
	}
	if err := e.srv.DeletePod("kubectl", "a", "p1", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := names(e.srv.ListPods("a", nil)); got != "a/p9" {
		t.Errorf("after delete: %s", got)
	}
}

func TestWatchLogRVsIncrease(t *testing.T) {
	e := newTestEnv()
	_, _ = e.srv.CreatePod("kubectl", testPod("default", "p", nil))
	_, _ = e.srv.CreateEvent("kubectl", &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "e"}})
	_ = e.srv.DeletePod("kubectl", "default", "p", DeleteOptions{})
	log := e.srv.WatchLog()
	if len(log) != 2 || log[0].Type != Added || log[1].Type != Deleted {
		t.Fatalf("log = %+v", log)
	}
	if log[0].RV != 1 || log[1].RV != 3 || e.srv.ResourceVersion() != 3 {
		t.Fatalf("RVs %d %d last %d (the event takes RV 2)", log[0].RV, log[1].RV, e.srv.ResourceVersion())
	}
	if log[1].Object.GetResourceVersion() != "3" {
		t.Fatal("DELETED object must carry the deletion RV")
	}
}

func TestConflictWording(t *testing.T) {
	e := newTestEnv()
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"a": "b"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}},
		},
	}
	if _, err := e.srv.CreateReplicaSet("kubectl", rs); err != nil {
		t.Fatal(err)
	}
	stale := rs.DeepCopy()
	stale.ResourceVersion = "99"
	_, err := e.srv.UpdateReplicaSetStatus("replicaset-controller", stale)
	want := `Operation cannot be fulfilled on replicasets.apps "x": the object has been modified; please apply your changes to the latest version and try again`
	if !apierrors.IsConflict(err) || err.Error() != want {
		t.Fatalf("got %v", err)
	}
}

func TestDependentsIndex(t *testing.T) {
	e := newTestEnv()
	p := testPod("default", "p", nil)
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "owner-1"}}
	_, _ = e.srv.CreatePod("kubectl", p)
	if d := e.srv.Dependents("owner-1"); len(d) != 1 || d[0].Name != "p" {
		t.Fatalf("dependents = %v", d)
	}
	_ = e.srv.DeletePod("kubectl", "default", "p", DeleteOptions{})
	if d := e.srv.Dependents("owner-1"); len(d) != 0 {
		t.Fatalf("dependents after delete = %v", d)
	}
}

func TestRequestResourceSpellsTheSubresource(t *testing.T) {
	for _, res := range []Resource{Pods, ReplicaSets, Deployments, Nodes, Events} {
		for _, sub := range []string{"", "/status", "/scale"} {
			if got, want := requestResource(res, sub), string(res)+sub; got != want {
				t.Errorf("requestResource(%s, %q) = %q, want %q", res, sub, got, want)
			}
		}
	}
}

// An event name that is taken is refused as AlreadyExists; the name keeps
// naming the first event, and the next event gets the next index.
func TestEventNameTakenTwice(t *testing.T) {
	e := newTestEnv()
	first := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "e"}, Reason: "First"}
	if _, err := e.srv.CreateEvent("kubectl", first); err != nil {
		t.Fatal(err)
	}
	_, err := e.srv.CreateEvent("kubectl", &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "e"}, Reason: "Second"})
	if !apierrors.IsAlreadyExists(err) {
		t.Fatalf("second create: %v, want AlreadyExists", err)
	}
	if _, err := e.srv.CreateEvent("kubectl", &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "f"}, Reason: "Third"}); err != nil {
		t.Fatal(err)
	}
	for name, reason := range map[string]string{"e": "First", "f": "Third"} {
		got, err := e.srv.Get(Events, "default", name)
		if err != nil {
			t.Fatalf("get %s: %v", name, err)
		}
		if r := got.(*corev1.Event).Reason; r != reason {
			t.Errorf("event %s has reason %s, want %s", name, r, reason)
		}
	}
	if n := e.srv.EventCount(); n != 2 {
		t.Errorf("%d events stored, want 2", n)
	}
	// A create refused for another reason does not take the name.
	bad := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "g", ResourceVersion: "5"}}
	if _, err := e.srv.CreateEvent("kubectl", bad); err == nil || apierrors.IsAlreadyExists(err) {
		t.Fatalf("create with a resourceVersion: %v, want an internal error", err)
	}
	if _, err := e.srv.CreateEvent("kubectl", &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "g"}}); err != nil {
		t.Fatalf("the name of a refused create is free: %v", err)
	}
	if n := e.srv.EventCount(); n != 3 {
		t.Errorf("%d events stored, want 3", n)
	}
}
