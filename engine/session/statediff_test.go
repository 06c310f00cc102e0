package session

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// stateDiff compares two simulations (or any two values) field by field,
// unexported fields included, and returns the path of the first difference,
// "" when there is none. Functions are wiring and are skipped; a nil and an
// empty map or slice are the same; pointers are compared by what they point
// to; a field tagged statediff:"skip" is skipped; a copy-on-write map
// (cow.Map) is compared by its entries, not their layout. Used to check that a
// restored-and-replayed simulation is in exactly the state of one replayed
// from step 0: a field a snapshot.go forgets to save or restore shows up
// here by name even when the trace does not (yet) show it.
//
// The path is built only for a difference, on the way back up: building it
// for every element visited (a trace holds megabytes) made gigabytes of
// garbage, and under js/wasm, whose collector only runs when Go code
// allocates, the heap once reached the 4 GB wasm memory in one test.
func stateDiff(a, b any) string {
	d := diffValues(reflect.ValueOf(a), reflect.ValueOf(b), map[[2]uintptr]bool{})
	if d == nil {
		return ""
	}
	return d.path + ": " + d.what
}

// difference is where two values differ: path is the field path below the
// values compared (".sim.kubelet.timers[3]"), what says how.
type difference struct{ path, what string }

// under returns d seen from one level up: seg prepended to its path.
func (d *difference) under(seg string) *difference {
	if d != nil {
		d.path = seg + d.path
	}
	return d
}

func differ(format string, args ...any) *difference {
	return &difference{what: fmt.Sprintf(format, args...)}
}

func diffValues(a, b reflect.Value, seen map[[2]uintptr]bool) *difference {
	if a.IsValid() != b.IsValid() {
		return differ("one side missing")
	}
	if !a.IsValid() {
		return nil
	}
	if a.Type() != b.Type() {
		return differ("type %s vs %s", a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Func:
		return nil
	case reflect.Pointer:
		if ca, ok := contentsOf(a); ok {
			cb, _ := contentsOf(b)
			return diffValues(reflect.ValueOf(ca), reflect.ValueOf(cb), seen)
		}
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return differ("nil vs non-nil")
			}
			return nil
		}
		key := [2]uintptr{a.Pointer(), b.Pointer()}
		if key[0] == key[1] || seen[key] {
			return nil
		}
		seen[key] = true
		return diffValues(a.Elem(), b.Elem(), seen)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return differ("nil vs non-nil")
			}
			return nil
		}
		return diffValues(a.Elem(), b.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if f.Tag.Get("statediff") == "skip" {
				continue // a pointer kept to save a lookup, not state
			}
			if d := diffValues(a.Field(i), b.Field(i), seen); d != nil {
				return d.under("." + f.Name)
			}
		}
		return nil
	case reflect.Map:
		if a.Len() != b.Len() {
			return differ("%d vs %d entries", a.Len(), b.Len())
		}
		iter := a.MapRange()
		for iter.Next() {
			k := iter.Key()
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return (&difference{what: "missing"}).under(fmt.Sprintf("[%v]", k))
			}
			if d := diffValues(iter.Value(), bv, seen); d != nil {
				return d.under(fmt.Sprintf("[%v]", k))
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return differ("length %d vs %d", a.Len(), b.Len())
		}
		if a.Kind() == reflect.Slice && a.Len() > 0 && a.Pointer() == b.Pointer() {
			return nil
		}
		if a.Kind() == reflect.Slice && a.Type().Elem().Kind() == reflect.Uint8 && bytes.Equal(a.Bytes(), b.Bytes()) {
			return nil // equal bytes (trace chunks): no need to visit each
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValues(a.Index(i), b.Index(i), seen); d != nil {
				return d.under(fmt.Sprintf("[%d]", i))
			}
		}
		return nil
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return differ("%v vs %v", a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return differ("%d vs %d", a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return differ("%d vs %d", a.Uint(), b.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if a.Float() != b.Float() {
			return differ("%v vs %v", a.Float(), b.Float())
		}
	case reflect.String:
		if a.String() != b.String() {
			return differ("%q vs %q", a.String(), b.String())
		}
	case reflect.Complex64, reflect.Complex128:
		if a.Complex() != b.Complex() {
			return differ("%v vs %v", a.Complex(), b.Complex())
		}
	default:
		return differ("cannot compare %s", a.Kind())
	}
	return nil
}

// contentsOf returns the entries of v, a pointer to a cow.Map, ok false
// for any other pointer. The pointer is rebuilt from its address, since v
// may come from an unexported field (whose methods reflect cannot call).
func contentsOf(v reflect.Value) (any, bool) {
	p := reflect.NewAt(v.Type().Elem(), v.UnsafePointer())
	m, ok := p.Interface().(interface{ Contents() any })
	if !ok {
		return nil, false
	}
	return m.Contents(), true
}

// stateDiff names the first difference by its path, through structs,
// pointers, maps, slices and byte slices; skipped fields and equal values
// give "".
func TestStateDiffNamesTheFirstDifference(t *testing.T) {
	type leaf struct {
		N    int
		Hint *int `statediff:"skip"`
	}
	type tree struct {
		M     map[string][]leaf
		Bytes []byte
		P     *leaf
	}
	one, two := 1, 2
	mk := func() tree {
		return tree{M: map[string][]leaf{"a": {{N: 1, Hint: &one}, {N: 2}}}, Bytes: []byte("abc"), P: &leaf{N: 7}}
	}
	x, y := mk(), mk()
	y.M["a"][0].Hint = &two
	if d := stateDiff(x, y); d != "" {
		t.Errorf("equal but for a skipped field: %q", d)
	}
	y.M["a"][1].N = 3
	if d, want := stateDiff(x, y), ".M[a][1].N: 2 vs 3"; d != want {
		t.Errorf("got %q, want %q", d, want)
	}
	y = mk()
	y.Bytes[2] = 'x'
	if d, want := stateDiff(x, y), ".Bytes[2]: 99 vs 120"; d != want {
		t.Errorf("got %q, want %q", d, want)
	}
	y = mk()
	y.P.N = 8
	if d, want := stateDiff(x, y), ".P.N: 7 vs 8"; d != want {
		t.Errorf("got %q, want %q", d, want)
	}
	// cow.Maps compare by their entries: the same ones set in another
	// order (other slots) are equal; another value is named by its key.
	type holder struct{ m *cow.Map[string, int] }
	a, b := holder{cow.NewMap[string, int]()}, holder{cow.NewMap[string, int]()}
	a.m.Set("p", 1)
	a.m.Set("q", 2)
	b.m.Set("z", 0)
	b.m.Set("q", 2)
	b.m.Set("p", 1)
	b.m.Delete("z")
	if d := stateDiff(a, b); d != "" {
		t.Errorf("maps with the same entries differ: %q", d)
	}
	b.m.Set("q", 3)
	if d, want := stateDiff(a, b), ".m[q]: 2 vs 3"; d != want {
		t.Errorf("got %q, want %q", d, want)
	}
}
