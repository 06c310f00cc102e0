// Package fieldcheck guards the checkpoint code of the engine's packages
// against new fields: a test lists the fields of a struct that its
// snapshot.go handles, and Covered fails when the struct has a field the
// list does not name (or the list names one the struct no longer has), so
// that whoever adds state to a component is pointed at the snapshot code
// that must capture it. Only tests import this package.
package fieldcheck

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Covered fails t unless the fields of the struct type of v (a struct or a
// pointer to one) are exactly the names in covered.
func Covered(t testing.TB, v any, covered ...string) {
	t.Helper()
	typ := reflect.TypeOf(v)
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	var have []string
	for i := 0; i < typ.NumField(); i++ {
		have = append(have, typ.Field(i).Name)
	}
	var missing, gone []string
	for _, f := range have {
		if !slices.Contains(covered, f) {
			missing = append(missing, f)
		}
	}
	for _, f := range covered {
		if !slices.Contains(have, f) {
			gone = append(gone, f)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%s has field(s) %s that its checkpoint (snapshot.go) does not handle: capture them there (or say why they need not be), then list them in this test",
			typ, strings.Join(missing, ", "))
	}
	if len(gone) > 0 {
		t.Errorf("%s no longer has field(s) %s listed as checkpointed: update snapshot.go and this test", typ, strings.Join(gone, ", "))
	}
}
