package deployment

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

func templated(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}},
	}
}

// TestTemplateMatchesFollowGenerations checks that a remembered answer is
// used only for the generations it was computed for: a spec change on
// either side (a new generation) is compared afresh.
func TestTemplateMatchesFollowGenerations(t *testing.T) {
	var m templateMatches
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{UID: "d1", Generation: 1}, Spec: appsv1.DeploymentSpec{Template: templated("v1")}}
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{UID: "rs1", Generation: 1}, Spec: appsv1.ReplicaSetSpec{Template: templated("v1")}}
	rs.Spec.Template.Labels = map[string]string{"app": "web", deployutil.DefaultPodTemplateHashLabel: "abc"}
	check := func(step string) {
		t.Helper()
		want := deployutil.EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template)
		if got := m.equal(rs, d); got != want {
			t.Fatalf("%s: equal = %v, EqualIgnoreHash = %v", step, got, want)
		}
	}
	check("first comparison")
	check("remembered")
	d.Spec.Template = templated("v2")
	d.Generation = 2
	check("deployment template changed")
	rs.Spec.Template = templated("v2")
	rs.Generation = 2
	check("replicaset template changed")
	m.forget(rs.UID)
	if len(m.byRS) != 0 {
		t.Fatalf("forget left %v", m.byRS)
	}
	// Objects never stored (no generation) are always compared.
	d.Generation = 0
	d.Spec.Template = templated("v3")
	check("unstored deployment")
	if len(m.byRS) != 0 {
		t.Fatalf("an unstored object was remembered: %v", m.byRS)
	}
}
