package apiserver

import (
	"fmt"
	"testing"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestMetaMemoSameErrorsAsApimachinery validates metadata twice (the second
// time with its labels and annotations remembered) and checks both times
// against apimachinery's own validation, including metadata that mixes
// remembered and invalid labels.
func TestMetaMemoSameErrorsAsApimachinery(t *testing.T) {
	path := field.NewPath("metadata")
	valid := metav1.ObjectMeta{Name: "p", Namespace: "default", ResourceVersion: "2",
		Labels: map[string]string{"app": "memo-web", "tier": "memo-front"}, Annotations: map[string]string{"memo.example.com/a": "x"}}
	badLabel := *valid.DeepCopy()
	badLabel.Labels["bad key!"] = "memo-web"
	badName := *valid.DeepCopy()
	badName.Name = "Bad_Name"
	renamed := *valid.DeepCopy()
	renamed.Name = "q"
	cases := []metav1.ObjectMeta{valid, valid, badLabel, badName, valid}
	for i, m := range cases {
		got := validateMeta(&m, true, apivalidation.NameIsDNSSubdomain, path)
		want := apivalidation.ValidateObjectMeta(&m, true, apivalidation.NameIsDNSSubdomain, path)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("case %d create: got %v, want %v", i, got, want)
		}
		for _, old := range []metav1.ObjectMeta{valid, renamed} {
			got := validateMetaUpdate(&m, &old, path)
			want := apivalidation.ValidateObjectMetaUpdate(&m, &old, path)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("case %d update from %s: got %v, want %v", i, old.Name, got, want)
			}
		}
	}
	if len(validateMeta(&badLabel, true, apivalidation.NameIsDNSSubdomain, path)) == 0 {
		t.Error("an invalid label key among remembered ones was accepted")
	}
	if m := withoutKnownValid(&valid); m.Labels != nil || m.Annotations != nil {
		t.Errorf("remembered labels and annotations were not skipped: %v %v", m.Labels, m.Annotations)
	}
}

// TestDNSSubdomainNameMemo checks that the memoized name check returns
// apimachinery's messages for valid and invalid names and prefixes, the
// first time and when remembered, across a generation change.
func TestDNSSubdomainNameMemo(t *testing.T) {
	names := []string{"web-7d4b9c-abcde", "web-7d4b9c-", "Bad_Name", "-bad", "a.b.c", "x"}
	check := func(round string) {
		t.Helper()
		for _, n := range names {
			for _, prefix := range []bool{false, true} {
				got, want := dnsSubdomainName(n, prefix), apivalidation.NameIsDNSSubdomain(n, prefix)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: dnsSubdomainName(%q, %v) = %v, want %v", round, n, prefix, got, want)
				}
			}
		}
	}
	check("first")
	check("remembered")
	for i := 0; i < 2*maxNameMemo+1; i++ {
		dnsSubdomainName(fmt.Sprintf("filler-%d-", i), true) // prefixes: valid names are not stored
	}
	check("after two generations")
	nameMemo.mu.Lock()
	size := len(nameMemo.current) + len(nameMemo.previous)
	nameMemo.mu.Unlock()
	if size > 2*maxNameMemo {
		t.Errorf("name memo holds %d prefixes, more than two generations of %d", size, maxNameMemo)
	}
}
