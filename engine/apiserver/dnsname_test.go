package apiserver

import (
	"math/rand/v2"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

// TestIsDNSSubdomain checks isDNSSubdomain and isDNSLabel against
// apimachinery's IsDNS1123Subdomain and IsDNS1123Label on edge cases and on random strings over an alphabet
// that makes every rule matter.
func TestIsDNSSubdomain(t *testing.T) {
	cases := []string{
		"", "a", "0", "-", ".", "a-", "-a", "a.", ".a", "a..b", "a.-b", "a-.b",
		"a.b", "a-b", "a--b", "web-5d8f7c9b4-x2k9q", "A", "aB", "a_b", "a b",
		"a\n", "é", "example.com", "1.2.3.4", strings.Repeat("a", 253),
		strings.Repeat("a", 254), strings.Repeat("a", 63) + "." + strings.Repeat("b", 63),
		strings.Repeat("a", 63), strings.Repeat("a", 64),
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab09-.A_"
	for i := 0; i < 20000; i++ {
		n := r.IntN(12)
		if i%100 == 0 {
			n = 250 + r.IntN(6)
		}
		b := make([]byte, n)
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	accepted := 0
	for _, s := range cases {
		want := len(validation.IsDNS1123Subdomain(s)) == 0
		if got := isDNSSubdomain(s); got != want {
			t.Fatalf("isDNSSubdomain(%q) = %v, IsDNS1123Subdomain says %v", s, got, want)
		}
		if want {
			accepted++
		}
		if got, want := isDNSLabel(s), len(validation.IsDNS1123Label(s)) == 0; got != want {
			t.Fatalf("isDNSLabel(%q) = %v, IsDNS1123Label says %v", s, got, want)
		}
	}
	// Both answers must be exercised for the comparison to mean anything.
	if accepted < 1000 || accepted > len(cases)-1000 {
		t.Fatalf("%d of %d cases accepted: too one-sided", accepted, len(cases))
	}
}

// TestDNSSubdomainNameMessages: invalid names still get apimachinery's messages.
func TestDNSSubdomainNameMessages(t *testing.T) {
	for _, name := range []string{"Web", "a_b", "-a", strings.Repeat("a", 254)} {
		got, want := dnsSubdomainName(name, false), validation.IsDNS1123Subdomain(name)
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) == 0 {
			t.Errorf("dnsSubdomainName(%q) = %q, want %q", name, got, want)
		}
	}
}
