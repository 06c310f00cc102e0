package apiserver

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A created pod's affinity terms carry its matchLabelKeys and
// mismatchLabelKeys merged into their selectors (required and preferred,
// affinity and anti-affinity; a key the pod lacks adds nothing, a term
// without a selector stays without; two pods created from one body get
// one merge each); a restored pod is stored as it came (set-up merges the
// pods it fills in itself).
func TestCreatedPodMergesAffinityLabelKeys(t *testing.T) {
	app := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "api"}}
	term := func(match, mismatch []string) corev1.PodAffinityTerm {
		return corev1.PodAffinityTerm{LabelSelector: app.DeepCopy(), TopologyKey: "kubernetes.io/hostname", MatchLabelKeys: match, MismatchLabelKeys: mismatch}
	}
	pod := func(name string) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "api", "pod-template-hash": "h1", "tenant": "a"}},
			Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "c", Image: "api:1"}},
				Affinity: &corev1.Affinity{
					PodAffinity: &corev1.PodAffinity{
						PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: term([]string{"tenant"}, nil)}},
					},
					PodAntiAffinity: &corev1.PodAntiAffinity{
						RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
							term([]string{"pod-template-hash", "absent"}, []string{"tenant"}),
							{TopologyKey: "kubernetes.io/hostname", MatchLabelKeys: []string{"pod-template-hash"}},
						},
					},
				},
			},
		}
	}
	in := pod("created")
	env := newTestEnv()
	got, err := env.srv.CreatePod("test", in)
	if err != nil {
		t.Fatal(err)
	}
	anti := got.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	want := []metav1.LabelSelectorRequirement{
		{Key: "pod-template-hash", Operator: metav1.LabelSelectorOpIn, Values: []string{"h1"}},
		{Key: "tenant", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"a"}},
	}
	if !reflect.DeepEqual(anti[0].LabelSelector.MatchExpressions, want) {
		t.Errorf("required anti-affinity expressions %+v, want %+v", anti[0].LabelSelector.MatchExpressions, want)
	}
	if anti[1].LabelSelector != nil {
		t.Errorf("a term without a selector got %+v", anti[1].LabelSelector)
	}
	pref := got.Spec.Affinity.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.LabelSelector.MatchExpressions
	if want := []metav1.LabelSelectorRequirement{{Key: "tenant", Operator: metav1.LabelSelectorOpIn, Values: []string{"a"}}}; !reflect.DeepEqual(pref, want) {
		t.Errorf("preferred affinity expressions %+v, want %+v", pref, want)
	}
	if len(in.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions) != 0 {
		t.Error("the caller's pod was changed")
	}
	in.Name = "created-again"
	again, err := env.srv.CreatePod("test", in)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions; !reflect.DeepEqual(got, want) {
		t.Errorf("second pod from the same body: %+v, want %+v", got, want)
	}

	restored, err := env.srv.RestoreObject("test", Pods, pod("restored"))
	if err != nil {
		t.Fatal(err)
	}
	if exprs := restored.(*corev1.Pod).Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions; len(exprs) != 0 {
		t.Errorf("restored pod's expressions %+v, want none added", exprs)
	}
}
