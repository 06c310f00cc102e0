package informer

import (
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// Seq table geometry: seqs are grouped in chunks of seqChunkSize.
const (
	seqChunkBits = 7
	seqChunkSize = 1 << seqChunkBits
)

// seqTable maps entry seqs to values of T, the zero T standing for none.
// It is an array in chunks, copied on write by chunk: a checkpoint keeps
// the chunks as they are (save), and the store copies a chunk (and the
// list of chunks) before its first write to it under a new token. Seqs
// are dense (one per entry ever created), so a table costs little more
// than its live values, and looking a seq up is two loads.
//
// The store's entry table maps the seq of every cached entry to the entry;
// the sets hold seqs, so that putting a copy of an entry in place of the
// original (copy-on-write, Store.writable) is one write in the entry table
// instead of one in every set holding it. Each set's positions and its
// order (items by position) are seqTables too, so a checkpoint shares
// them instead of a restore rebuilding them.
type seqTable[T comparable] struct {
	// owner is the token chunks (the list, not the chunks it points to)
	// was created or copied under.
	owner *cow.Token
	// chunks[i] holds the values of the seqs of chunk number base+i
	// (seqs (base+i)*seqChunkSize to (base+i+1)*seqChunkSize-1); nil when
	// all of them are zero. The list spans the chunks from the first to
	// the last holding a value, so a table's size follows the span of its
	// seqs, not the largest.
	base   uint64
	chunks []*seqChunk[T]
}

// seqChunk is one chunk of a seqTable.
type seqChunk[T comparable] struct {
	// owner is the token the chunk was created or copied under.
	owner *cow.Token
	// live is the number of non-zero values; the table drops the chunk
	// when it reaches 0.
	live int
	vals [seqChunkSize]T
}

// get returns the value of seq q (zero when none).
func (t *seqTable[T]) get(q uint64) T {
	if i := q>>seqChunkBits - t.base; i < uint64(len(t.chunks)) {
		if c := t.chunks[i]; c != nil {
			return c.vals[q&(seqChunkSize-1)]
		}
	}
	var zero T
	return zero
}

// set makes v (zero to drop the value) the value of seq q, under token
// tok.
func (t *seqTable[T]) set(tok *cow.Token, q uint64, v T) {
	var zero T
	n := q >> seqChunkBits
	if v == zero && (n < t.base || n-t.base >= uint64(len(t.chunks))) {
		return
	}
	if t.owner != tok {
		t.chunks = slices.Clone(t.chunks)
		t.owner = tok
	}
	switch {
	case len(t.chunks) == 0:
		t.base = n
	case n < t.base:
		// Prepended by hand: slices.Insert costs ~4 kB of wasm per T.
		grown := make([]*seqChunk[T], int(t.base-n)+len(t.chunks))
		copy(grown[t.base-n:], t.chunks)
		t.chunks = grown
		t.base = n
	}
	i := int(n - t.base)
	if i >= len(t.chunks) {
		t.chunks = append(t.chunks, make([]*seqChunk[T], i+1-len(t.chunks))...)
	}
	c := t.chunks[i]
	switch {
	case c == nil:
		if v == zero {
			return
		}
		c = &seqChunk[T]{owner: tok}
		t.chunks[i] = c
	case c.owner != tok:
		cc := *c
		cc.owner = tok
		c = &cc
		t.chunks[i] = c
	}
	slot := &c.vals[q&(seqChunkSize-1)]
	switch {
	case *slot == zero && v != zero:
		c.live++
	case *slot != zero && v == zero:
		if c.live--; c.live == 0 {
			t.chunks[i] = nil
			t.trim()
			return
		}
	}
	*slot = v
}

// trim drops the empty chunks at both ends of the list.
func (t *seqTable[T]) trim() {
	for len(t.chunks) > 0 && t.chunks[len(t.chunks)-1] == nil {
		t.chunks = t.chunks[:len(t.chunks)-1]
	}
	k := 0
	for k < len(t.chunks) && t.chunks[k] == nil {
		k++
	}
	if k > 0 {
		n := copy(t.chunks, t.chunks[k:])
		clear(t.chunks[n:])
		t.chunks = t.chunks[:n]
		t.base += uint64(k)
	}
}

// each calls fn for every non-zero value, in the order of their seqs.
func (t *seqTable[T]) each(fn func(v T)) {
	var zero T
	for _, c := range t.chunks {
		if c == nil {
			continue
		}
		for _, v := range c.vals {
			if v != zero {
				fn(v)
			}
		}
	}
}

// save returns the table as it is; the store must take a new token before
// its next write.
func (t *seqTable[T]) save() seqTable[T] {
	return seqTable[T]{owner: t.owner, base: t.base, chunks: slices.Clip(t.chunks)}
}
