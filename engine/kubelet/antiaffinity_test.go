package kubelet

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// antiPod is a pod in ns with labels and, when terms are given, those
// required anti-affinity terms, as the API server stores it (its
// matchLabelKeys and mismatchLabelKeys merged into the selectors).
func antiPod(ns string, lbls map[string]string, terms ...corev1.PodAffinityTerm) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Labels: lbls}}
	if len(terms) > 0 {
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms}}
	}
	p = p.DeepCopy()
	podutil.MergeAffinityLabelKeys(p)
	return p
}

// relabeled is p with other labels (its terms as they were stored).
func relabeled(p *corev1.Pod, lbls map[string]string) *corev1.Pod {
	p = p.DeepCopy()
	p.Labels = lbls
	return p
}

func appTerm(app string) corev1.PodAffinityTerm {
	return corev1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}, TopologyKey: hostnameTopology}
}

// TestExcludes checks the InterPodAffinity filter's rules as the model
// applies them: either pod's term, the incoming pod's first; the term's
// namespaces; matchLabelKeys and mismatchLabelKeys (the owner's values
// merged into the selector when it was created, a key it lacks ignored,
// a later relabel of the owner no change); a term on another topology or
// without a selector ignored.
func TestExcludes(t *testing.T) {
	api := map[string]string{"app": "api", "pod-template-hash": "new"}
	oldAPI := map[string]string{"app": "api", "pod-template-hash": "old"}
	withKeys := appTerm("api")
	withKeys.MatchLabelKeys = []string{"pod-template-hash"}
	mismatch := appTerm("api")
	mismatch.MismatchLabelKeys = []string{"pod-template-hash", "absent"}
	zone := appTerm("api")
	zone.TopologyKey = "topology.kubernetes.io/zone"
	otherNS := appTerm("api")
	otherNS.Namespaces = []string{"prod"}
	allNS := appTerm("api")
	allNS.NamespaceSelector = &metav1.LabelSelector{}
	byName := appTerm("api")
	byName.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: "prod"}}
	noSelector := corev1.PodAffinityTerm{TopologyKey: hostnameTopology}
	for _, c := range []struct {
		name       string
		pod, other *corev1.Pod
		want       exclusion
	}{
		{"own rule", antiPod("default", api, appTerm("api")), antiPod("default", oldAPI), byOwnRule},
		{"existing pod's rule", antiPod("default", api), antiPod("default", oldAPI, appTerm("api")), byExistingRule},
		{"own rule first", antiPod("default", api, appTerm("api")), antiPod("default", oldAPI, appTerm("api")), byOwnRule},
		{"selector does not match", antiPod("default", api, appTerm("web")), antiPod("default", oldAPI), notExcluded},
		{"another namespace", antiPod("default", api, appTerm("api")), antiPod("prod", oldAPI), notExcluded},
		{"namespaces names it", antiPod("default", api, otherNS), antiPod("prod", oldAPI), byOwnRule},
		{"empty namespace selector: every namespace", antiPod("default", api, allNS), antiPod("prod", oldAPI), byOwnRule},
		{"namespace selector by name", antiPod("default", api, byName), antiPod("prod", oldAPI), byOwnRule},
		{"matchLabelKeys: another template hash", antiPod("default", api, withKeys), antiPod("default", oldAPI), notExcluded},
		{"matchLabelKeys: the same template hash", antiPod("default", api, withKeys), antiPod("default", api), byOwnRule},
		{"mismatchLabelKeys: the same hash passes", antiPod("default", api, mismatch), antiPod("default", api), notExcluded},
		{"mismatchLabelKeys: another hash excludes", antiPod("default", api, mismatch), antiPod("default", oldAPI), byOwnRule},
		{"matchLabelKeys: merged at creation, not from a later relabel", relabeled(antiPod("default", api, withKeys), oldAPI), antiPod("default", api), byOwnRule},
		{"mismatchLabelKeys: merged at creation, not from a later relabel", relabeled(antiPod("default", api, mismatch), oldAPI), antiPod("default", oldAPI), byOwnRule},
		{"zone topology not applied", antiPod("default", api, zone), antiPod("default", oldAPI), notExcluded},
		{"a term without selector selects nothing", antiPod("default", api, noSelector), antiPod("default", oldAPI), notExcluded},
	} {
		if got := excludes(c.pod, c.other); got != c.want {
			t.Errorf("%s: excludes = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestUnschedulableMessage checks the scheduler's message: counts per
// reason sorted as strings, then what preemption found.
func TestUnschedulableMessage(t *testing.T) {
	for _, c := range []struct {
		own, existing, notReady int
		want                    string
	}{
		{3, 0, 0, "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."},
		{1, 1, 1, "0/3 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) didn't satisfy existing pods anti-affinity rules, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. " +
			"preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."},
	} {
		if got := unschedulableMessage(3, c.own, c.existing, c.notReady); got != c.want {
			t.Errorf("unschedulableMessage(3, %d, %d, %d) =\n%s\nwant\n%s", c.own, c.existing, c.notReady, got, c.want)
		}
	}
}
