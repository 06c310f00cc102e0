package informer

import (
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// The entry table answers every seq set, drops a chunk when its last entry
// goes, and never writes what a saved table holds: a write under a new
// token copies the chunk list and the chunk written.
func TestEntryTableCopiesOnWrite(t *testing.T) {
	tok := cow.NewToken()
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
	tok2 := cow.NewToken()
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

// A table spans the chunks from its lowest to its highest value, however
// high the seqs: values below the span extend it at the front, and the
// span shrinks when its end chunks empty.
func TestSeqTableSpansItsValues(t *testing.T) {
	tok := cow.NewToken()
	tab := seqTable[uint32]{owner: tok}
	high := uint64(1000 * seqChunkSize)
	tab.set(tok, high+3, 7)
	if len(tab.chunks) != 1 || tab.base != 1000 {
		t.Fatalf("one value at seq %d: %d chunks from chunk %d", high+3, len(tab.chunks), tab.base)
	}
	tab.set(tok, high-2*seqChunkSize, 8)
	tab.set(tok, high+seqChunkSize+1, 9)
	if len(tab.chunks) != 4 || tab.base != 998 {
		t.Fatalf("values over chunks 998 to 1001: %d chunks from chunk %d", len(tab.chunks), tab.base)
	}
	saved := tab.save()
	tok2 := cow.NewToken()
	for q, want := range map[uint64]uint32{high + 3: 7, high - 2*seqChunkSize: 8, high + seqChunkSize + 1: 9, 5: 0, high: 0, 1 << 40: 0} {
		if got := tab.get(q); got != want {
			t.Errorf("get(%d) = %d, want %d", q, got, want)
		}
	}
	tab.set(tok2, high-2*seqChunkSize, 0)
	tab.set(tok2, high+seqChunkSize+1, 0)
	if len(tab.chunks) != 1 || tab.base != 1000 || tab.get(high+3) != 7 {
		t.Fatalf("after dropping both ends: %d chunks from chunk %d", len(tab.chunks), tab.base)
	}
	if saved.base != 998 || len(saved.chunks) != 4 || saved.get(high-2*seqChunkSize) != 8 || saved.get(high+seqChunkSize+1) != 9 {
		t.Fatal("writes under a new token changed the saved table")
	}
	tab.set(tok2, high+3, 0)
	if len(tab.chunks) != 0 {
		t.Fatalf("an empty table keeps %d chunks", len(tab.chunks))
	}
	tab.set(tok2, 2, 1)
	if tab.base != 0 || tab.get(2) != 1 {
		t.Fatalf("a value set in an emptied table: base %d, get %d", tab.base, tab.get(2))
	}
}
