package session

import (
	"fmt"
	"reflect"
)

// stateDiff compares two simulations (or any two values) field by field,
// unexported fields included, and returns the path of the first difference,
// "" when there is none. Functions are wiring and are skipped; a nil and an
// empty map or slice are the same; pointers are compared by what they point
// to; a field tagged statediff:"skip" is skipped. Used to check that a restored-and-replayed simulation is in exactly
// the state of one replayed from step 0: a field a snapshot.go forgets to
// save or restore shows up here by name even when the trace does not (yet)
// show it.
func stateDiff(a, b any) string {
	return diffValues(reflect.ValueOf(a), reflect.ValueOf(b), "", map[[2]uintptr]bool{})
}

func diffValues(a, b reflect.Value, path string, seen map[[2]uintptr]bool) string {
	if a.IsValid() != b.IsValid() {
		return path + ": one side missing"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: type %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Func:
		return ""
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil vs non-nil"
			}
			return ""
		}
		key := [2]uintptr{a.Pointer(), b.Pointer()}
		if key[0] == key[1] || seen[key] {
			return ""
		}
		seen[key] = true
		return diffValues(a.Elem(), b.Elem(), path, seen)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil vs non-nil"
			}
			return ""
		}
		return diffValues(a.Elem(), b.Elem(), path, seen)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).Tag.Get("statediff") == "skip" {
				continue // a pointer kept to save a lookup, not state
			}
			if d := diffValues(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d vs %d entries", path, a.Len(), b.Len())
		}
		iter := a.MapRange()
		for iter.Next() {
			k := iter.Key()
			bv := b.MapIndex(k)
			p := fmt.Sprintf("%s[%v]", path, k)
			if !bv.IsValid() {
				return p + ": missing"
			}
			if d := diffValues(iter.Value(), bv, p, seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		if a.Kind() == reflect.Slice && a.Len() > 0 && a.Pointer() == b.Pointer() {
			return ""
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValues(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d vs %d", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %d vs %d", path, a.Uint(), b.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if a.Float() != b.Float() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Float(), b.Float())
		}
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q vs %q", path, a.String(), b.String())
		}
	case reflect.Complex64, reflect.Complex128:
		if a.Complex() != b.Complex() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Complex(), b.Complex())
		}
	default:
		return fmt.Sprintf("%s: cannot compare %s", path, a.Kind())
	}
	return ""
}
