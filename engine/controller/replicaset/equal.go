package replicaset

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// The pod update handler compares labels and controller references on
// every pod event; these helpers give reflect.DeepEqual's answer for the
// two types without walking them by reflection (reflect only tells whether
// two maps are one).

// sameLabelMap is reflect.DeepEqual for label maps: a nil map equals only a
// nil map, otherwise the pairs must match.
//
// Example: sameLabelMap(nil, map[string]string{}) is false.
func sameLabelMap(a, b map[string]string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		return true // one map: a status write keeps the stored labels
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

// sameOwnerRef is reflect.DeepEqual for two owner references (pointers:
// equal when both nil, or both set with equal fields, podutil.SameOwnerRef).
func sameOwnerRef(a, b *metav1.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return podutil.SameOwnerRef(*a, *b)
}
