package kubectl

import (
	"errors"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

func newEnv() (*Kubectl, *apiserver.Server, *clock.Clock) {
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	srv := apiserver.New(c, rng.New(1).Stream("names"), rec)
	return New(srv, c), srv, c
}

func template(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}},
	}
}

func deployment(replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: template("nginx:1.25"),
		},
	}
}

func must(t *testing.T, want string) func(string, error) {
	t.Helper()
	return func(got string, err error) {
		t.Helper()
		if err != nil || got != want {
			t.Fatalf("got %q, %v; want %q", got, err, want)
		}
	}
}

func TestActionsOnDeployment(t *testing.T) {
	k, srv, c := newEnv()
	must(t, "deployment.apps/web created")(k.Apply(deployment(3)))
	must(t, "deployment.apps/web unchanged")(k.Apply(deployment(3)))
	must(t, "deployment.apps/web configured")(k.Apply(deployment(4)))
	must(t, "deployment.apps/web scaled")(k.Scale(apiserver.Deployments, "default", "web", 10))
	must(t, "deployment.apps/web image updated")(k.SetImage("default", "web", "", "nginx:1.26"))
	d, _ := srv.GetDeployment("default", "web")
	if *d.Spec.Replicas != 10 || d.Spec.Template.Spec.Containers[0].Image != "nginx:1.26" {
		t.Fatalf("stored: %+v", d.Spec)
	}
	if _, err := k.SetImage("default", "web", "nope", "x"); !errors.Is(err, ErrContainerNotFound) || err.Error() != `unable to find container named "nope" (containers: web)` {
		t.Fatalf("set image unknown container: %v", err)
	}
	must(t, "deployment.apps/web paused")(k.Pause("default", "web"))
	must(t, "deployment.apps/web already paused")(k.Pause("default", "web"))
	if _, err := k.Restart("default", "web"); !errors.Is(err, ErrPaused) || err.Error() != "can't restart paused deployment (run rollout resume first)" {
		t.Fatalf("restart paused: %v", err)
	}
	must(t, "deployment.apps/web resumed")(k.Resume("default", "web"))
	c.Advance(90 * time.Second)
	must(t, "deployment.apps/web restarted")(k.Restart("default", "web"))
	d, _ = srv.GetDeployment("default", "web")
	if got := d.Spec.Template.Annotations[RestartedAtAnnotation]; got != "2026-01-01T00:01:30Z" {
		t.Fatalf("restartedAt = %q", got)
	}
	if _, err := k.Scale(apiserver.Deployments, "default", "missing", 1); !apierrors.IsNotFound(err) {
		t.Fatalf("scale missing: %v", err)
	}
	must(t, `deployment.apps "web" deleted`)(k.Delete(apiserver.Deployments, "default", "web", metav1.DeletePropagationBackground))
	if _, err := srv.GetDeployment("default", "web"); !apierrors.IsNotFound(err) {
		t.Fatalf("deployment still there: %v", err)
	}
}

func TestScaleAndDeleteReplicaSetAndPod(t *testing.T) {
	k, srv, _ := newEnv()
	two := int32(2)
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: "default"},
		Spec:       appsv1.ReplicaSetSpec{Replicas: &two, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: template("x")},
	}
	must(t, "replicaset.apps/rs created")(k.Apply(rs))
	must(t, "replicaset.apps/rs scaled")(k.Scale(apiserver.ReplicaSets, "default", "rs", 0))
	if got, _ := srv.GetReplicaSet("default", "rs"); *got.Spec.Replicas != 0 {
		t.Fatal("not scaled")
	}
	must(t, `replicaset.apps "rs" deleted`)(k.Delete(apiserver.ReplicaSets, "default", "rs", ""))
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: template("x").Spec}
	must(t, "pod/p created")(k.Apply(pod))
	must(t, `pod "p" deleted`)(k.DeletePod("default", "p"))
	if _, err := k.Scale(apiserver.Pods, "default", "p", 1); !errors.Is(err, ErrUnsupportedKind) {
		t.Fatalf("scale pod: %v", err)
	}
}

// replicaSetFor stores an RS owned by d with a revision and template.
func replicaSetFor(t *testing.T, srv *apiserver.Server, d *appsv1.Deployment, name, rev, image string, ann map[string]string) {
	t.Helper()
	zero := int32(0)
	tmpl := template(image)
	tmpl.Labels["pod-template-hash"] = name
	a := map[string]string{"deployment.kubernetes.io/revision": rev}
	for k, v := range ann {
		a[k] = v
	}
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-" + name, Namespace: "default", Annotations: a,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}},
		Spec: appsv1.ReplicaSetSpec{Replicas: &zero, Template: tmpl,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": name}}},
	}
	if _, err := srv.CreateReplicaSet("test", rs); err != nil {
		t.Fatal(err)
	}
}

func TestUndo(t *testing.T) {
	k, srv, _ := newEnv()
	if _, err := k.Apply(deployment(3)); err != nil {
		t.Fatal(err)
	}
	d, _ := srv.GetDeployment("default", "web")
	if _, err := k.Undo("default", "web", 0); !errors.Is(err, ErrRevisionNotFound) || err.Error() != `no rollout history found for deployment "web"` {
		t.Fatalf("undo without history: %v", err)
	}
	replicaSetFor(t, srv, d, "a", "1", "nginx:1.24", map[string]string{"team": "blue"})
	replicaSetFor(t, srv, d, "b", "2", "nginx:1.25", nil)
	must(t, "deployment.apps/web skipped rollback (current template already matches revision 2)")(k.Undo("default", "web", 2))
	if _, err := k.Undo("default", "web", 9); err == nil || err.Error() != "unable to find specified revision 9 in history" {
		t.Fatalf("undo to missing revision: %v", err)
	}
	must(t, "deployment.apps/web paused")(k.Pause("default", "web"))
	if _, err := k.Undo("default", "web", 0); !errors.Is(err, ErrPaused) ||
		err.Error() != "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/web' and try again" {
		t.Fatalf("undo paused: %v", err)
	}
	must(t, "deployment.apps/web resumed")(k.Resume("default", "web"))
	// Revision 0 = the second highest = 1.
	must(t, "deployment.apps/web rolled back")(k.Undo("default", "web", 0))
	d, _ = srv.GetDeployment("default", "web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "nginx:1.24" {
		t.Fatalf("image after undo: %s", img)
	}
	if _, ok := d.Spec.Template.Labels["pod-template-hash"]; ok {
		t.Fatal("pod-template-hash label copied into the deployment")
	}
	if d.Annotations["team"] != "blue" || d.Annotations["deployment.kubernetes.io/revision"] != "" {
		t.Fatalf("annotations after undo: %v", d.Annotations)
	}
}
