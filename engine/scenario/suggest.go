package scenario

import "sort"

// suggest returns the candidate closest to s by edit distance when it is
// close enough to be a likely typo (distance at most 2, at most 1 for keys
// shorter than 5 bytes), or "" when nothing is close. Ties go to the alphabetically first
// candidate, so the result never depends on the order of candidates.
//
// Example: suggest("replica", {"replicas", "selector"}) = "replicas".
func suggest(s string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	limit := 2
	if len(s) < 5 {
		limit = 1
	}
	best, bestDist := "", limit+1
	for _, c := range sorted {
		if d := editDistance(s, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, compared byte by
// byte (field names are ASCII), case-sensitively.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// unknownFieldMessage is the message for an unknown key, with a suggestion
// when one is close.
func unknownFieldMessage(key string, known []string) string {
	if s := suggest(key, known); s != "" {
		return `unknown field (did you mean "` + s + `"?)`
	}
	return "unknown field"
}
