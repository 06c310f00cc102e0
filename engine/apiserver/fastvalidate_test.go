package apiserver

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// TestUnchangedPartsSkipOnlyWhatOldPassed: a bind and a status write that
// leave metadata and containers as stored are accepted without walking
// them, while the same writes with a changed, invalid part are still
// refused with upstream's field path.
func TestUnchangedPartsSkipOnlyWhatOldPassed(t *testing.T) {
	e := newTestEnv()
	p, err := e.srv.CreatePod("kubectl", testPod("default", "web", map[string]string{"app": "web"}))
	if err != nil {
		t.Fatal(err)
	}
	bound, err := e.srv.BindPod("scheduler", "default", "web", "node-1")
	if err != nil || bound.Spec.NodeName != "node-1" || bound.ResourceVersion == p.ResourceVersion {
		t.Fatalf("bind: %v %+v", err, bound)
	}
	st := bound.DeepCopy()
	st.Status.Phase = corev1.PodRunning
	if _, err := e.srv.UpdatePodStatus("kubelet", st); err != nil {
		t.Fatalf("status write: %v", err)
	}
	cur, _ := e.srv.GetPod("default", "web")
	bad := cur.DeepCopy()
	bad.Annotations = map[string]string{"bad key!": "x"}
	_, err = e.srv.UpdatePodStatus("kubelet", bad)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "metadata.annotations") {
		t.Fatalf("invalid annotation on a status write: %v", err)
	}
	bad = cur.DeepCopy()
	bad.Spec.Containers[0].Image = ""
	_, err = e.srv.UpdatePod("kubectl", bad)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.containers[0].image: Required value") {
		t.Fatalf("empty image on an update: %v", err)
	}
}

// TestStatusWriteCopiesWhatItKeeps: a status write keeps the request's
// annotations as its own copy and the stored labels, whatever the request
// carries, so changing the request afterwards changes nothing stored.
func TestStatusWriteCopiesWhatItKeeps(t *testing.T) {
	e := newTestEnv()
	p, err := e.srv.CreatePod("kubectl", testPod("default", "web", map[string]string{"app": "web"}))
	if err != nil {
		t.Fatal(err)
	}
	in := p.DeepCopy()
	in.Annotations = map[string]string{"note": "a"}
	in.Labels = map[string]string{"app": "other"}
	in.Status.Phase = corev1.PodRunning
	out, err := e.srv.UpdatePodStatus("kubelet", in)
	if err != nil {
		t.Fatal(err)
	}
	in.Annotations["note"] = "changed"
	in.Status.Phase = corev1.PodFailed
	stored, _ := e.srv.GetPod("default", "web")
	if stored != out || stored.Annotations["note"] != "a" || stored.Labels["app"] != "web" || stored.Status.Phase != corev1.PodRunning {
		t.Fatalf("stored %+v %+v %s", stored.Annotations, stored.Labels, stored.Status.Phase)
	}
}
