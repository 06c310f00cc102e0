// Package cow is copy-on-write for the records a simulated component keeps
// in a map and changes in place (pod states, graph nodes, informer cache
// entries and sets): a checkpoint and a restore share the records, and a
// record is copied the first time it is written after either. The maps
// that hold them are copy-on-write too (Map): a checkpoint copies a short
// list of chunk headers, and a write copies one chunk of the map.
//
// Each record carries the Token of the epoch it was made in; the component
// holds the token of its current epoch and starts a new epoch at every
// checkpoint and restore. A record whose token is not the current one may
// be shared with a checkpoint (or, through a checkpoint, with another
// simulation), so it is copied, the copy stamped with the current token
// and put in the map, before it is written. A token is never reused, so a
// record a checkpoint holds is never written again by anyone.
package cow

// Token identifies one epoch of one component. It is not zero-sized:
// distinct allocations of it have distinct addresses.
type Token struct{ _ byte }

// NewToken starts an epoch.
func NewToken() *Token { return new(Token) }
