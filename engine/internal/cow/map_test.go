package cow

import (
	"maps"
	"math/rand/v2"
	"testing"
)

// contents returns m's entries as a Go map, checking Len and Get agree
// with Range.
func contents(t *testing.T, m *Map[int, int]) map[int]int {
	t.Helper()
	out := map[int]int{}
	m.Range(func(k, v int) bool {
		if _, dup := out[k]; dup {
			t.Fatalf("Range visits %d twice", k)
		}
		out[k] = v
		if got, ok := m.Get(k); !ok || got != v {
			t.Fatalf("Get(%d) = %d, %v; Range gives %d", k, got, ok, v)
		}
		return true
	})
	if len(out) != m.Len() {
		t.Fatalf("Len %d, Range visits %d", m.Len(), len(out))
	}
	return out
}

// TestMapMatchesAGoMapThroughSnapshotsAndRestores applies random sets,
// deletes, snapshots and restores to a Map and, in parallel, to Go maps
// (the snapshots as clones), and checks they always agree: a snapshot
// keeps what the map held when it was taken, whatever is written after,
// by the map or by another map that restored it. The first two maps share
// a slot table.
func TestMapMatchesAGoMapThroughSnapshotsAndRestores(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type saved struct {
		snap MapSnapshot[int, int]
		want map[int]int
	}
	var snaps []saved
	table := NewSlotTable[int]()
	maps2 := []*Map[int, int]{NewMapOn[int, int](table), NewMapOn[int, int](table)}
	wants := []map[int]int{{}, {}}
	for i := 0; i < 20000; i++ {
		j := r.IntN(len(maps2))
		m, want := maps2[j], wants[j]
		switch op := r.IntN(100); {
		case op < 55:
			k, v := r.IntN(300), r.Int()
			m.Set(k, v)
			want[k] = v
		case op < 85:
			k := r.IntN(300)
			m.Delete(k)
			delete(want, k)
		case op < 92:
			snaps = append(snaps, saved{m.Snapshot(), maps.Clone(want)})
		case op < 97 && len(snaps) > 0:
			s := snaps[r.IntN(len(snaps))]
			m.Restore(s.snap)
			wants[j] = maps.Clone(s.want)
		case len(maps2) < 5 && len(snaps) > 0:
			s := snaps[r.IntN(len(snaps))]
			n := NewMap[int, int]()
			n.Restore(s.snap)
			maps2 = append(maps2, n)
			wants = append(wants, maps.Clone(s.want))
		default:
			f := m.Fork()
			maps2 = append(maps2[:j:j], append([]*Map[int, int]{f}, maps2[j+1:]...)...)
		}
		for x, m := range maps2 {
			if got := contents(t, m); !maps.Equal(got, wants[x]) {
				t.Fatalf("op %d: map %d holds %v, want %v", i, x, got, wants[x])
			}
		}
	}
	for i, s := range snaps {
		n := NewMap[int, int]()
		n.Restore(s.snap)
		if got := contents(t, n); !maps.Equal(got, s.want) || s.snap.Len() != len(s.want) {
			t.Fatalf("snapshot %d restores %v, was %v", i, got, s.want)
		}
	}
}

// TestMapsOnOneTableHoldTheirOwnEntries checks that maps sharing a slot
// table share the slots and nothing else: a key set in one is absent from
// the other until set there, under the same slot; SlotOf and HasSlot agree
// with Has.
func TestMapsOnOneTableHoldTheirOwnEntries(t *testing.T) {
	table := NewSlotTable[string]()
	a, b := NewMapOn[string, int](table), NewMapOn[string, int](table)
	a.Set("x", 1)
	a.Set("y", 2)
	if b.Has("x") || b.Len() != 0 {
		t.Fatalf("b holds x = %d (len %d) after a set in a", b.At("x"), b.Len())
	}
	if slot, ok := b.SlotOf("x"); !ok || slot != 0 || b.HasSlot(slot) || !a.HasSlot(slot) {
		t.Fatalf("x: slot %d, %v in b; held by a %v, by b %v", slot, ok, a.HasSlot(slot), b.HasSlot(slot))
	}
	b.Set("y", 20)
	b.Set("z", 30)
	if len(table.keys) != 3 || table.of["y"] != 1 {
		t.Fatalf("%d slots, y in slot %d; want 3 slots, y in slot 1 for both maps", len(table.keys), table.of["y"])
	}
	b.Delete("y")
	if a.At("y") != 2 || b.Has("y") || a.Has("z") || b.HasSlot(1) || !a.HasSlot(1) {
		t.Fatalf("a: y = %d, z %v, slot 1 %v; b: y %v, slot 1 %v", a.At("y"), a.Has("z"), a.HasSlot(1), b.Has("y"), b.HasSlot(1))
	}
	if _, ok := a.SlotOf("w"); ok || a.HasSlot(5*chunkSize) {
		t.Fatal("a key never set has a slot, or a slot past the chunks is held")
	}
	var none *Map[string, int]
	if _, ok := none.SlotOf("x"); ok || none.HasSlot(0) {
		t.Fatal("a nil map has a slot")
	}
	if NewMapOn[string, int](nil).SlotTable() == table || a.SlotTable() != table {
		t.Fatal("a map made on no table shares one, or a map is not on the table it was made on")
	}
	c := NewMap[string, int]()
	c.Restore(a.Snapshot())
	if c.SlotTable() != table || c.At("y") != 2 {
		t.Fatal("a restored map is not on the snapshot's table")
	}
}

// TestSlotTableRemembersTheLastKeyFound checks the table's one-entry
// cache (SlotTable.last): the key found or given last is answered from it,
// by every map on the table and by GetSlot, and any other key goes to the
// table's map. The cache is seen by taking keys out of that map behind its
// back, which nothing else does.
func TestSlotTableRemembersTheLastKeyFound(t *testing.T) {
	table := NewSlotTable[string]()
	a, b := NewMapOn[string, int](table), NewMapOn[string, int](table)
	a.Set("x", 1)
	a.Set("y", 2)
	b.Set("y", 20)
	if a.At("x") != 1 || a.At("y") != 2 || b.At("y") != 20 || b.Has("x") {
		t.Fatalf("a: x %d, y %d; b: y %d, has x %v", a.At("x"), a.At("y"), b.At("y"), b.Has("x"))
	}
	b.At("y")
	// y was found last: it no longer needs the map.
	delete(table.of, "y")
	if a.At("y") != 2 || b.At("y") != 20 {
		t.Fatalf("y from the cache: a %d, b %d; want 2 and 20", a.At("y"), b.At("y"))
	}
	// x is not the last key: it is looked up, and then is the last.
	delete(table.of, "x")
	if a.Has("x") {
		t.Fatal("x found without its entry in the table's map: the cache answered for another key")
	}
	table.of["x"] = 0
	if a.At("x") != 1 {
		t.Fatalf("x = %d, want 1", a.At("x"))
	}
	delete(table.of, "x")
	if a.At("x") != 1 {
		t.Fatal("x, just found, is not answered from the cache")
	}
	// GetSlot makes its slot the last one found; an empty slot does not.
	if v, ok := b.GetSlot(1); !ok || v != 20 {
		t.Fatalf("b's slot 1 = %d, %v; want 20", v, ok)
	}
	if b.At("y") != 20 {
		t.Fatal("y not answered from the cache after GetSlot of its slot")
	}
	if _, ok := b.GetSlot(0); ok {
		t.Fatal("b holds x's slot")
	}
	if b.At("y") != 20 {
		t.Fatal("an empty slot read by GetSlot replaced the cached key")
	}
	// Set gives a new key its slot and remembers it.
	a.Set("z", 3)
	delete(table.of, "z")
	if slot, ok := a.SlotOf("z"); !ok || slot != 2 || a.At("z") != 3 {
		t.Fatalf("z: slot %d, %v, value %d; want slot 2, value 3", slot, ok, a.At("z"))
	}
	var none *Map[string, int]
	if _, ok := none.GetSlot(0); ok {
		t.Fatal("a nil map holds a slot")
	}
}

// TestMapSnapshotCopiesOnlyTheChunksWritten checks what a snapshot costs:
// writing one entry after it copies one chunk, and the others stay shared.
func TestMapSnapshotCopiesOnlyTheChunksWritten(t *testing.T) {
	m := NewMap[int, int]()
	for k := 0; k < 10*chunkSize; k++ {
		m.Set(k, k)
	}
	s := m.Snapshot()
	m.Set(3, -3)
	m.Delete(5*chunkSize + 1)
	shared := 0
	for i := range m.chunks {
		if m.chunks[i] == s.chunks[i] {
			shared++
		}
	}
	if shared != 8 {
		t.Fatalf("%d of 10 chunks shared after writes to 2, want 8", shared)
	}
	if v, _ := (&Map[int, int]{slots: s.slots, chunks: s.chunks, n: s.n}).Get(3); v != 3 {
		t.Fatalf("the snapshot sees %d under 3, want 3", v)
	}
}

// TestMapDropsEmptyChunks checks that deleting every entry of a chunk
// frees it.
func TestMapDropsEmptyChunks(t *testing.T) {
	m := NewMap[string, int]()
	for k := 0; k < 2*chunkSize; k++ {
		m.Set(string(rune('a'+k)), k)
	}
	for k := 0; k < chunkSize; k++ {
		m.Delete(string(rune('a' + k)))
	}
	if m.chunks[0] != nil || m.chunks[1] == nil || m.Len() != chunkSize {
		t.Fatalf("chunks %v, len %d", m.chunks, m.Len())
	}
	m.Set("a", 7)
	if v, ok := m.Get("a"); !ok || v != 7 || m.Len() != chunkSize+1 {
		t.Fatalf("a = %d, %v after a delete and a set again", v, ok)
	}
}

// TestChangedSince counts what a snapshot holds that an earlier one does
// not, in maps sharing a slot table and not.
func TestChangedSince(t *testing.T) {
	m := NewMap[int, int]()
	for k := 0; k < 100; k++ {
		m.Set(k, k)
	}
	prev := m.Snapshot()
	m.Set(3, -3)  // changed
	m.Set(40, 40) // same value: not counted
	m.Delete(50)  // gone: not held by s, not counted
	m.Set(200, 1) // new
	s := m.Snapshot()
	if got := ChangedSince(s, prev); got != 2 {
		t.Fatalf("ChangedSince = %d, want 2", got)
	}
	other := NewMap[int, int]()
	for k := 99; k >= 0; k-- {
		other.Set(k, k)
	}
	if got := ChangedSince(s, other.Snapshot()); got != 2 {
		t.Fatalf("ChangedSince across slot tables = %d, want 2", got)
	}
}

// A zero SlotTable finds nothing: its last slot is past its keys.
func TestZeroSlotTableFindsNothing(t *testing.T) {
	var table SlotTable[string]
	if slot, ok := table.find(""); ok {
		t.Fatalf("the zero table finds \"\" in slot %d", slot)
	}
}
