package podutil

// labelPair is one key=value a label set must hold.
type labelPair struct{ key, value string }

// labelPairs lists m's pairs (in map order: holdsAll's answer does not
// depend on it), so that matching many label sets against m walks a slice
// instead of iterating the map each time.
func labelPairs(m map[string]string) []labelPair {
	out := make([]labelPair, 0, len(m))
	for k, v := range m {
		out = append(out, labelPair{k, v})
	}
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
