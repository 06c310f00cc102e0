package podutil

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MergeAffinityLabelKeys does to a pod being created what the API server
// does to its pod affinity and anti-affinity terms (required and
// preferred; MatchLabelKeysInPodAffinity is on in v1.36): for each key of a
// term's matchLabelKeys the pod carries, it appends "key In (the pod's
// value)" to the term's label selector, and "key NotIn (value)" for
// mismatchLabelKeys. A term without a selector selects nothing and is left
// as it is; a key the pod lacks adds nothing. The merge happens once: a
// later change of the pod's labels does not change what its terms select.
// The pod's affinity must be its own (a create's copy).
func MergeAffinityLabelKeys(p *corev1.Pod) {
	a := p.Spec.Affinity
	if a == nil {
		return
	}
	var terms []*corev1.PodAffinityTerm
	add := func(required []corev1.PodAffinityTerm, preferred []corev1.WeightedPodAffinityTerm) {
		for i := range required {
			terms = append(terms, &required[i])
		}
		for i := range preferred {
			terms = append(terms, &preferred[i].PodAffinityTerm)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		add(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if anti := a.PodAntiAffinity; anti != nil {
		add(anti.RequiredDuringSchedulingIgnoredDuringExecution, anti.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	for _, t := range terms {
		mergeLabelKeys(t, p.Labels)
	}
}

// mergeLabelKeys merges the values labels has for term's matchLabelKeys
// (In) and mismatchLabelKeys (NotIn) into its selector.
func mergeLabelKeys(term *corev1.PodAffinityTerm, labels map[string]string) {
	if term.LabelSelector == nil {
		return
	}
	for _, m := range []struct {
		keys []string
		op   metav1.LabelSelectorOperator
	}{{term.MatchLabelKeys, metav1.LabelSelectorOpIn}, {term.MismatchLabelKeys, metav1.LabelSelectorOpNotIn}} {
		for _, key := range m.keys {
			if v, ok := labels[key]; ok {
				term.LabelSelector.MatchExpressions = append(term.LabelSelector.MatchExpressions, metav1.LabelSelectorRequirement{Key: key, Operator: m.op, Values: []string{v}})
			}
		}
	}
}
