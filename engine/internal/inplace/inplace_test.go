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

func TestChunksClipsTheLastChunk(t *testing.T) {
	arr := make([]int, 2, 8)
	arr[0], arr[1] = 1, 2
	saved := [][]int{{0}, arr}
	live := Chunks([][]int{{9}, {9}, {9}}, saved)
	if len(live) != 2 || cap(live[1]) != 2 {
		t.Fatalf("live %v, last cap %d: want 2 chunks, the last clipped to 2", live, cap(live[1]))
	}
	live[1] = append(live[1], 3)
	if arr[:3][2] == 3 {
		t.Fatal("an append after the restore wrote into the checkpoint's array")
	}
}

// AppendChunk fills chunks of the given size, and after Chunks clipped the
// last one the next append moves it to a full-size array, leaving the
// array the saved headers show unwritten.
func TestAppendChunkAfterAClip(t *testing.T) {
	var live [][]int
	for i := range 6 {
		live = AppendChunk(live, 4, i)
	}
	if len(live) != 2 || !slices.Equal(live[0], []int{0, 1, 2, 3}) || !slices.Equal(live[1], []int{4, 5}) {
		t.Fatalf("chunks %v", live)
	}
	saved := slices.Clone(live)
	live = AppendChunk(Chunks(live, saved), 4, 9)
	if cap(live[1]) != 4 || !slices.Equal(live[1], []int{4, 5, 9}) {
		t.Fatalf("after the clip: %v (cap %d), want [4 5 9] in a full-size array", live[1], cap(live[1]))
	}
	if full := saved[1][:cap(saved[1])]; len(full) > 2 && full[2] == 9 {
		t.Fatal("the append wrote into the array the saved headers show")
	}
}
