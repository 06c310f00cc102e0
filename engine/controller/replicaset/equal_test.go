package replicaset

import (
	"fmt"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSameLabelMapIsDeepEqual compares sameLabelMap with reflect.DeepEqual
// on every pair of a set of maps that includes nil and empty.
func TestSameLabelMapIsDeepEqual(t *testing.T) {
	maps := []map[string]string{nil, {}, {"a": "1"}, {"a": "2"}, {"b": "1"}, {"a": "1", "b": "2"}, {"a": "1", "b": "3"}}
	for i, a := range maps {
		for j, b := range maps {
			if got, want := sameLabelMap(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("maps %d,%d: sameLabelMap(%v, %v) = %v, DeepEqual %v", i, j, a, b, got, want)
			}
		}
	}
}

// TestSameOwnerRefIsDeepEqual compares sameOwnerRef with reflect.DeepEqual
// on references that differ in one field each, and fails if OwnerReference
// gains a field the helper does not compare.
func TestSameOwnerRefIsDeepEqual(t *testing.T) {
	if n := reflect.TypeOf(metav1.OwnerReference{}).NumField(); n != 6 {
		t.Fatalf("OwnerReference has %d fields; sameOwnerRef compares 6", n)
	}
	yes, no, yes2 := true, false, true
	base := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "u1", Controller: &yes}
	variants := []*metav1.OwnerReference{nil, &base}
	for i := 0; i < 7; i++ {
		r := base
		switch i {
		case 0:
			r.APIVersion = "v1"
		case 1:
			r.Kind = "Job"
		case 2:
			r.Name = "db"
		case 3:
			r.UID = "u2"
		case 4:
			r.Controller = &no
		case 5:
			r.Controller = nil
		case 6:
			r.Controller, r.BlockOwnerDeletion = &yes2, &yes
		}
		variants = append(variants, &r)
	}
	same := base
	same.Controller = &yes2 // another pointer, same value
	variants = append(variants, &same)
	for i, a := range variants {
		for j, b := range variants {
			if got, want := sameOwnerRef(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("refs %d,%d: sameOwnerRef(%s, %s) = %v, DeepEqual %v", i, j, fmt.Sprint(a), fmt.Sprint(b), got, want)
			}
		}
	}
}
