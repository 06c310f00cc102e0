package informer

import (
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// Copy-on-write (package internal/cow): a checkpoint keeps the store's
// entries, entry table, sets and objects map as they are, and the store
// takes a new token (Store.token), so that everything the checkpoint holds
// now carries an old one: the store copies it before its first write, and
// a checkpoint costs a copy of a few headers instead of the cache. A
// restore likewise hands the checkpoint's parts to the store under a new
// token, so the same checkpoint can be restored again, by this store or by
// another (a fork's).

// writable returns the cached entry e ready to be written in place: e
// itself when the store owns it, else a copy (its own indexed slice; the
// value slices inside are replaced, never written, and stay shared) that
// takes e's place in objects and in the entry table, where every set
// holding e's seq finds it.
func (s *Store) writable(e *entry) *entry {
	if e.owner == s.token {
		return e
	}
	c := e.copyFor(s.token)
	s.objects.Set(c.key, c)
	s.entries.set(s.token, c.seq, c)
	return c
}

// copyFor returns a copy of e owned by tok that shares nothing e may write
// in place (TestEntryCopySharesNothingWritable).
func (e *entry) copyFor(tok *cow.Token) *entry {
	c := *e
	c.owner = tok
	c.indexed = slices.Clone(e.indexed)
	return &c
}

// newToken gives the store a new token: from now on, everything it holds
// is copied before it is written.
func (s *Store) newToken() { s.token = cow.NewToken() }
