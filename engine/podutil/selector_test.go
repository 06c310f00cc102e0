package podutil

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// TestSelectorForMatchesLikeApimachinery compares SelectorFor with
// metav1.LabelSelectorAsSelector on selectors and label sets that cover
// every branch: missing key, wrong value, extra labels, no labels, an
// empty and a nil selector, and matchExpressions (not sped up).
func TestSelectorForMatchesLikeApimachinery(t *testing.T) {
	selectors := []*metav1.LabelSelector{
		nil,
		{},
		{MatchLabels: map[string]string{"app": "web"}},
		{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "abc"}},
		{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"a", "b"}}}},
	}
	sets := []labels.Set{
		nil, {}, {"app": "web"}, {"app": "db"}, {"app": "web", "pod-template-hash": "abc"},
		{"app": "web", "pod-template-hash": "xyz"}, {"app": "web", "pod-template-hash": "abc", "tier": "a", "x": "y"}, {"pod-template-hash": "abc"},
	}
	for i, ls := range selectors {
		want, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			t.Fatal(err)
		}
		got, err := SelectorFor(ls)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("selector %d: String %q, want %q", i, got.String(), want.String())
		}
		for _, set := range sets {
			if g, w := got.Matches(set), want.Matches(set); g != w {
				t.Errorf("selector %d on %v: Matches %v, want %v", i, set, g, w)
			}
		}
	}
	if _, fast := mustSelector(t, selectors[3]).(matchLabelsSelector); !fast {
		t.Error("a matchLabels selector did not get the fast Matches")
	}
	bad := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "bad value!"}}
	_, want := metav1.LabelSelectorAsSelector(bad)
	if _, err := SelectorFor(bad); err == nil || err.Error() != want.Error() {
		t.Errorf("invalid selector: error %v, want %v", err, want)
	}
}

func mustSelector(t *testing.T, ls *metav1.LabelSelector) labels.Selector {
	t.Helper()
	s, err := SelectorFor(ls)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
