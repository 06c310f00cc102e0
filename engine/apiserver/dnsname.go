package apiserver

import "strings"

// isDNSSubdomain reports whether s is a DNS-1123 subdomain as apimachinery's
// validation.IsDNS1123Subdomain decides it (no messages): at most 253 bytes
// of one or more dot-separated labels, each of lower-case letters, digits
// and '-', starting and ending with a letter or digit. It answers without
// the regular expression, which ran once per created pod: pod names are new,
// so the name memo could not help, and at 10,000 replicas the expression was
// 2.5% of a rollout's CPU profile. TestIsDNSSubdomain compares the two.
func isDNSSubdomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	// atStart: the byte before i ended a label (or i is 0); prev: that byte.
	atStart, prev := true, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			atStart = false
		case c == '-':
			if atStart {
				return false
			}
		case c == '.':
			if atStart || prev == '-' {
				return false
			}
			atStart = true
		default:
			return false
		}
		prev = c
	}
	return !atStart && prev != '-'
}

// isDNSLabel reports whether s is a DNS-1123 label as apimachinery's
// validation.IsDNS1123Label decides it (no messages): a subdomain of one
// label, at most 63 bytes. Container names are checked with it on every
// pod create (TestIsDNSSubdomain compares it too).
func isDNSLabel(s string) bool {
	return len(s) <= 63 && strings.IndexByte(s, '.') < 0 && isDNSSubdomain(s)
}
