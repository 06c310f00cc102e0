package informer

import (
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// Seq list geometry: items in chunks of seqListChunkSize (1 kB).
const (
	seqListChunkBits = 7
	seqListChunkSize = 1 << seqListChunkBits
)

// seqList is an orderedSet's items: seqs in insertion order, 0 for a
// tombstone. It is an array in chunks, copied on write by chunk like
// seqTable: a checkpoint keeps the chunks as they are (save), and the
// store copies a chunk (and the list of chunks) before its first write to
// it under a new token. A set is mostly appended to and tombstoned here
// and there between two checkpoints, so the store copies its last chunk
// and the few others it wrote, not the whole list: a set holding every
// pod of a 10,000-replica rollout is 80 kB of seqs, and there are a few
// such sets per store (the order, the namespace, the controller index and
// label buckets).
type seqList struct {
	// owner is the token chunks (the list, not the chunks it points to)
	// was created or copied under.
	owner *cow.Token
	// chunks[i] holds items i*seqListChunkSize to (i+1)*seqListChunkSize-1;
	// the last one is filled up to n.
	chunks []*seqListChunk
	// n is the number of items.
	n int
}

// seqListChunk is one chunk of a seqList.
type seqListChunk struct {
	// owner is the token the chunk was created or copied under.
	owner *cow.Token
	vals  [seqListChunkSize]uint64
}

func (l *seqList) len() int { return l.n }

// at returns item i (i < len).
func (l *seqList) at(i int) uint64 {
	return l.chunks[i>>seqListChunkBits].vals[i&(seqListChunkSize-1)]
}

// set makes item i (i < len) q, under token tok.
func (l *seqList) set(tok *cow.Token, i int, q uint64) {
	l.writable(tok, i>>seqListChunkBits).vals[i&(seqListChunkSize-1)] = q
}

// append adds q at the end, under token tok.
func (l *seqList) append(tok *cow.Token, q uint64) {
	if l.n == len(l.chunks)<<seqListChunkBits {
		l.ownList(tok)
		l.chunks = append(l.chunks, &seqListChunk{owner: tok})
	}
	l.n++
	l.set(tok, l.n-1, q)
}

// each calls fn for every item in order, tombstones included.
func (l *seqList) each(fn func(q uint64)) {
	rest := l.n
	for _, c := range l.chunks {
		if rest <= 0 {
			return
		}
		for _, q := range c.vals[:min(rest, seqListChunkSize)] {
			fn(q)
		}
		rest -= seqListChunkSize
	}
}

// all returns the items (for tests).
func (l *seqList) all() []uint64 {
	out := make([]uint64, 0, l.n)
	l.each(func(q uint64) { out = append(out, q) })
	return out
}

// ownList makes the list of chunks the store's own (token tok).
func (l *seqList) ownList(tok *cow.Token) {
	if l.owner != tok {
		l.chunks = slices.Clone(l.chunks)
		l.owner = tok
	}
}

// writable returns chunk ci ready to be written under token tok, copying
// it (and the list) when a checkpoint may share it.
func (l *seqList) writable(tok *cow.Token, ci int) *seqListChunk {
	c := l.chunks[ci]
	if c.owner != tok {
		l.ownList(tok)
		cc := *c
		cc.owner = tok
		c = &cc
		l.chunks[ci] = c
	}
	return c
}

// save returns the list as it is; the store must take a new token before
// its next write.
func (l *seqList) save() seqList {
	return seqList{owner: l.owner, chunks: slices.Clip(l.chunks), n: l.n}
}
