package podutil

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// labelPair is one key=value a label set must hold.
type labelPair struct{ key, value string }

// labelPairs lists m's pairs in key order.
func labelPairs(m map[string]string) []labelPair {
	out := make([]labelPair, 0, len(m))
	for k, v := range m {
		out = append(out, labelPair{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// holdsAll reports whether set has every pair.
func holdsAll(set map[string]string, pairs []labelPair) bool {
	for _, p := range pairs {
		if v, ok := set[p.key]; !ok || v != p.value {
			return false
		}
	}
	return true
}

// matchLabelsSelector is a selector built from matchLabels alone. Matches
// on a labels.Set does one map lookup per label instead of the generic
// requirement walk (a presence test, then a lookup and a value scan); it
// gives the same answer. Everything else is the embedded selector's.
type matchLabelsSelector struct {
	labels.Selector
	pairs []labelPair
}

// Matches implements labels.Selector.
func (s matchLabelsSelector) Matches(l labels.Labels) bool {
	if set, ok := l.(labels.Set); ok {
		return holdsAll(set, s.pairs)
	}
	return s.Selector.Matches(l)
}

// SelectorFor is metav1.LabelSelectorAsSelector, with a faster Matches for
// the common selector that has matchLabels and no matchExpressions. The
// controllers match every candidate pod against their selector on every
// sync, so this is on the hot path of large ReplicaSets.
func SelectorFor(ls *metav1.LabelSelector) (labels.Selector, error) {
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil || ls == nil || len(ls.MatchExpressions) > 0 || len(ls.MatchLabels) == 0 {
		return sel, err
	}
	return matchLabelsSelector{Selector: sel, pairs: labelPairs(ls.MatchLabels)}, nil
}
