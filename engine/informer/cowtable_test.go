package informer

import "testing"

// The entry table answers every seq set, drops a chunk when its last entry
// goes, and never writes what a saved table holds: a write under a new
// token copies the chunk list and the chunk written.
func TestEntryTableCopiesOnWrite(t *testing.T) {
	tok := new(owner)
	var tab seqTable[*entry]
	tab.owner = tok
	seqs := []uint64{1, 2, seqChunkSize - 1, seqChunkSize, 3*seqChunkSize + 5}
	for _, q := range seqs {
		tab.set(tok, q, &entry{seq: q})
	}
	for _, q := range seqs {
		if e := tab.get(q); e == nil || e.seq != q {
			t.Fatalf("get(%d) = %v", q, e)
		}
	}
	if tab.chunks[2] != nil {
		t.Fatal("a chunk with no entry was made")
	}
	saved := tab.save()
	savedChunk0 := saved.chunks[0]
	tok2 := new(owner)
	tab.set(tok2, 1, &entry{seq: 1, key: "copy"})
	tab.set(tok2, seqChunkSize, nil)
	if got := tab.get(1).key; got != "copy" {
		t.Fatalf("after the write, get(1) has key %q", got)
	}
	if tab.chunks[1] != nil {
		t.Fatal("the chunk whose last entry was dropped is kept")
	}
	if saved.chunks[0] != savedChunk0 || saved.get(1).key != "" || saved.chunks[1] == nil || saved.get(seqChunkSize) == nil {
		t.Fatal("a write under a new token changed the saved table")
	}
	if tab.chunks[0] == savedChunk0 || tab.chunks[0].owner != tok2 {
		t.Fatal("the chunk written is not a copy owned by the new token")
	}
	if c := tab.chunks[3]; c != saved.chunks[3] {
		t.Fatal("a chunk not written was copied")
	}
	// Writes under the same token are in place.
	c0 := tab.chunks[0]
	tab.set(tok2, 2, nil)
	if tab.chunks[0] != c0 || c0.live != 2 {
		t.Fatalf("a second write under the same token copied the chunk or miscounted (live %d)", c0.live)
	}
}
