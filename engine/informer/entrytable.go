package informer

import "slices"

// Entry table geometry: seqs are grouped in chunks of entryChunkSize.
const (
	entryChunkBits = 8
	entryChunkSize = 1 << entryChunkBits
)

// entryTable maps the seq of every cached entry to the entry. The store's
// sets hold seqs, not entries, so that putting a copy of an entry in place
// of the original (copy-on-write, Store.writable) is one write here
// instead of one in every set holding it. It is copied on write by chunk:
// a checkpoint keeps the chunks as they are, and the store copies a chunk
// (and the list of chunks) before its first write to it under a new
// token.
type entryTable struct {
	// owner is the token chunks (the list, not the chunks it points to)
	// was created or copied under.
	owner *owner
	// chunks[i] holds the entries of seqs i*entryChunkSize to
	// (i+1)*entryChunkSize-1; nil when none of them is cached.
	chunks []*entryChunk
}

// entryChunk is one chunk of an entryTable.
type entryChunk struct {
	// owner is the token the chunk was created or copied under.
	owner *owner
	// live is the number of non-nil entries; the table drops the chunk
	// when it reaches 0.
	live    int
	entries [entryChunkSize]*entry
}

// get returns the entry of seq q, which is cached.
func (t *entryTable) get(q uint64) *entry {
	return t.chunks[q>>entryChunkBits].entries[q&(entryChunkSize-1)]
}

// set makes e (nil to drop it) the entry of seq q, under token tok.
func (t *entryTable) set(tok *owner, q uint64, e *entry) {
	i := int(q >> entryChunkBits)
	if t.owner != tok {
		t.chunks = slices.Clone(t.chunks)
		t.owner = tok
	}
	if i >= len(t.chunks) {
		if e == nil {
			return
		}
		t.chunks = append(t.chunks, make([]*entryChunk, i+1-len(t.chunks))...)
	}
	c := t.chunks[i]
	switch {
	case c == nil:
		if e == nil {
			return
		}
		c = &entryChunk{owner: tok}
		t.chunks[i] = c
	case c.owner != tok:
		cc := *c
		cc.owner = tok
		c = &cc
		t.chunks[i] = c
	}
	slot := &c.entries[q&(entryChunkSize-1)]
	switch {
	case *slot == nil && e != nil:
		c.live++
	case *slot != nil && e == nil:
		if c.live--; c.live == 0 {
			t.chunks[i] = nil
			return
		}
	}
	*slot = e
}

// save returns the table as it is; the store must take a new token before
// its next write.
func (t *entryTable) save() entryTable {
	return entryTable{owner: t.owner, chunks: slices.Clip(t.chunks)}
}
