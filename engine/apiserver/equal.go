package apiserver

import (
	"reflect"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
)

// semanticEqual reports whether a and b are equal under the rules of
// apimachinery's equality.Semantic.DeepEqual, which the real registry uses
// to detect no-op writes:
//
//   - a nil slice or map equals an empty one;
//   - resource.Quantity values compare by numeric value ("1" == "1000m");
//   - metav1.Time and metav1.MicroTime compare as UTC instants;
//   - metav1.FieldsV1 compares its raw bytes; label and field selectors
//     compare by their String form;
//   - everything else compares field by field, element by element.
//
// It returns the same answer as equality.Semantic.DeepEqual for every API
// object the server stores (none has float fields, funcs or reference
// cycles), at a fraction of the cost: no per-field defer, no visited map, no
// reflective calls and no boxing of scalars. Two references to the same
// backing memory are equal without looking inside, which is exact for these
// types because every value equals itself.
//
// Worked example: a pod whose status is rewritten with an identical status
// but with nil instead of empty conditions is equal to the stored pod, so
// the write stores nothing and keeps the resourceVersion.
func semanticEqual(a, b any) bool {
	if a == nil || b == nil {
		return a == b
	}
	v1, v2 := reflect.ValueOf(a), reflect.ValueOf(b)
	if v1.Type() != v2.Type() {
		return false
	}
	return valueEqual(v1, v2)
}

// Types with a rule of their own in equality.Semantic.
var (
	quantityType  = reflect.TypeFor[resource.Quantity]()
	timeType      = reflect.TypeFor[metav1.Time]()
	microTimeType = reflect.TypeFor[metav1.MicroTime]()
	fieldsV1Type  = reflect.TypeFor[metav1.FieldsV1]()
	labelSelType  = reflect.TypeFor[labels.Selector]()
	fieldSelType  = reflect.TypeFor[fields.Selector]()
)

// valueEqual compares two values of the same type.
func valueEqual(v1, v2 reflect.Value) bool {
	if !v1.IsValid() || !v2.IsValid() {
		return v1.IsValid() == v2.IsValid()
	}
	switch v1.Kind() {
	case reflect.String:
		return v1.String() == v2.String()
	case reflect.Bool:
		return v1.Bool() == v2.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v1.Int() == v2.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v1.Uint() == v2.Uint()
	case reflect.Float32, reflect.Float64:
		return v1.Float() == v2.Float()
	case reflect.Pointer:
		if v1.Pointer() == v2.Pointer() {
			return true
		}
		return valueEqual(v1.Elem(), v2.Elem())
	case reflect.Struct:
		if special, eq := specialEqual(v1, v2); special {
			return eq
		}
		for i, n := 0, v1.NumField(); i < n; i++ {
			if !valueEqual(v1.Field(i), v2.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		e1, e2 := v1.Len() == 0, v2.Len() == 0
		if e1 || e2 {
			return e1 == e2
		}
		if v1.Len() != v2.Len() {
			return false
		}
		if v1.Pointer() == v2.Pointer() {
			return true
		}
		if v1.Type().Elem().Kind() == reflect.Uint8 {
			return string(v1.Bytes()) == string(v2.Bytes())
		}
		for i := 0; i < v1.Len(); i++ {
			if !valueEqual(v1.Index(i), v2.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := 0; i < v1.Len(); i++ {
			if !valueEqual(v1.Index(i), v2.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		e1, e2 := v1.Len() == 0, v2.Len() == 0
		if e1 || e2 {
			return e1 == e2
		}
		if v1.Len() != v2.Len() {
			return false
		}
		if v1.Pointer() == v2.Pointer() {
			return true
		}
		it := v1.MapRange()
		for it.Next() {
			if !valueEqual(it.Value(), v2.MapIndex(it.Key())) {
				return false
			}
		}
		return true
	case reflect.Interface:
		if t := v1.Type(); t == labelSelType || t == fieldSelType {
			if v1.IsNil() || v2.IsNil() {
				// equality.Semantic would call String on a nil
				// selector and panic; nil only equals nil here.
				return v1.IsNil() && v2.IsNil()
			}
			return v1.Interface().(interface{ String() string }).String() ==
				v2.Interface().(interface{ String() string }).String()
		}
		if v1.IsNil() || v2.IsNil() {
			return v1.IsNil() == v2.IsNil()
		}
		e1, e2 := v1.Elem(), v2.Elem()
		if e1.Type() != e2.Type() {
			return false
		}
		return valueEqual(e1, e2)
	case reflect.Func:
		return v1.IsNil() && v2.IsNil()
	}
	return v1.Interface() == v2.Interface()
}

// specialEqual applies the struct types with a rule of their own; special
// is false for any other struct.
func specialEqual(v1, v2 reflect.Value) (special, eq bool) {
	switch v1.Type() {
	case quantityType:
		a, b := structOf[resource.Quantity](v1), structOf[resource.Quantity](v2)
		return true, a.Cmp(*b) == 0
	case timeType:
		a, b := structOf[metav1.Time](v1), structOf[metav1.Time](v2)
		return true, a.UTC() == b.UTC()
	case microTimeType:
		a, b := structOf[metav1.MicroTime](v1), structOf[metav1.MicroTime](v2)
		return true, a.UTC() == b.UTC()
	case fieldsV1Type:
		a, b := structOf[metav1.FieldsV1](v1), structOf[metav1.FieldsV1](v2)
		return true, a.Equal(*b)
	}
	return false, false
}

// structOf returns a pointer to the T held by v, without copying it when v
// is addressable.
func structOf[T any](v reflect.Value) *T {
	if v.CanAddr() {
		return v.Addr().Interface().(*T)
	}
	t := v.Interface().(T)
	return &t
}
