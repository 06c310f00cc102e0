package inplace

import (
	"maps"
	"slices"
	"testing"
)

func TestMapBecomesSavedAndLeavesSavedAlone(t *testing.T) {
	saved := map[string]int{"a": 1, "b": 2, "c": 3}
	live := map[string]int{"a": 1, "b": 5, "d": 4}
	got := Map(live, saved)
	if !maps.Equal(got, saved) {
		t.Fatalf("got %v, want %v", got, saved)
	}
	got["a"] = 9
	if saved["a"] != 1 {
		t.Fatal("the restored map shares storage with the saved one")
	}
	if fresh := Map(nil, saved); !maps.Equal(fresh, saved) {
		t.Fatalf("from nil: %v", fresh)
	}
}

func TestSliceReusesTheLiveArray(t *testing.T) {
	live := make([]string, 3, 10)
	saved := []string{"x", "", "y"}
	got := Slice(live, saved)
	if !slices.Equal(got, saved) || &got[0] != &live[:1][0] {
		t.Fatalf("got %v (reused: %v)", got, &got[0] == &live[:1][0])
	}
}
