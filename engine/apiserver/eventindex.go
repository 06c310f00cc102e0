package apiserver

import "slices"

// eventIndex finds stored Events by namespace and name, for reads and for
// the name check of a create. A long run stores tens of thousands of
// Events, and a seek restores a checkpoint and replays; deleting the keys
// of the events a restore cuts and adding those it brings back cost 15% of
// a seek in a 100k-step run (CPU profile of BenchmarkSeekWorst). So going
// back, a restore changes nothing in the map: the index keeps the log it
// was built on (ahead), whose events past the ones held stay indexed, and
// every read checks the entry it finds against the events held (an event's
// key never changes). A replay that stores the same events again finds each
// one indexed already, and a restore forward into that stretch needs no
// work when its events are ahead's (checked, most often by sharing their
// storage). The first event that differs from ahead's at its index (the run
// took another course) drops ahead's events from there, keys and all.
//
// Invariant: at holds exactly the keys of the events [0, n) of the log the
// index was built on, each mapped to its index: the held events when n is
// at most the number held, else ahead, which then agrees with the held
// events, key for key, on every index they hold. Keys are unique in a log,
// so an entry that points at a held event of its own key is that event,
// and a key not found that way is not held when n covers every event held.
// Snapshot: no (a restore needs it to be neither copied nor cut; see
// restore).
type eventIndex struct {
	// at maps a key to its event's index.
	at map[eventKey]int
	// n is the length of the prefix indexed.
	n int
	// ahead is the log the index was built on, when that goes past the
	// events held (n > held); nil otherwise.
	ahead *eventLog
}

func newEventIndex() eventIndex { return eventIndex{at: map[eventKey]int{}} }

// find returns the index of the held event of key, if any.
func (x *eventIndex) find(held *eventLog, key eventKey) (int, bool) {
	if i, ok := x.heldAt(held, key); ok {
		return i, true
	}
	if x.n < held.n {
		x.catchUp(held)
		return x.heldAt(held, key)
	}
	return 0, false
}

// heldAt checks the entry of key against the events held.
func (x *eventIndex) heldAt(held *eventLog, key eventKey) (int, bool) {
	i, ok := x.at[key]
	return i, ok && i < held.n && held.at(i).key() == key
}

// catchUp indexes the held events past the prefix indexed (a restore
// forward past what this index has seen, on a server that has not stored
// those events itself: a fork's, or one rebuilt).
func (x *eventIndex) catchUp(held *eventLog) {
	for ; x.n < held.n; x.n++ {
		x.at[held.at(x.n).key()] = x.n
	}
}

// claim checks that no held event has key and indexes key as the next
// event's (index held.n), which the caller then stores. It returns false
// when the name is taken.
func (x *eventIndex) claim(held *eventLog, key eventKey) bool {
	n := held.n
	if x.ahead != nil {
		if x.ahead.at(n).key() == key {
			// A replay storing the event the index was built on: at[key]
			// is n already, and no held event has key (they agree with
			// ahead's before n, whose keys are unique).
			if x.n == n+1 {
				x.ahead = nil
			}
			return true
		}
		// The run goes another way from here.
		x.forget(n)
	}
	x.catchUp(held)
	// at holds the keys of the n events held: one probe of the map both
	// checks the name and claims it. A taken name gets its index back (a
	// scan; rare).
	x.at[key] = n
	if len(x.at) == n {
		x.at[key] = x.scan(held, key)
		return false
	}
	x.n = n + 1
	return true
}

// forget drops ahead's events from index from on: their keys leave the
// map (a run that took another course would otherwise leave the keys of
// every future it gave up).
func (x *eventIndex) forget(from int) {
	for i := from; i < x.n; i++ {
		if k := x.ahead.at(i).key(); x.at[k] == i {
			delete(x.at, k)
		}
	}
	x.ahead, x.n = nil, from
}

// scan finds the held event of key by reading them all.
func (x *eventIndex) scan(held *eventLog, key eventKey) int {
	for i := range held.n {
		if held.at(i).key() == key {
			return i
		}
	}
	panic("event " + key.ns + "/" + key.name + " is indexed but not stored")
}

// restore follows the server's events from held to cp (a restore; the
// two agree up to the shorter). Going back past the prefix indexed, the
// index keeps the log it was built on as ahead. Going forward into ahead's
// stretch, cp must agree with ahead there: it does when both are of the
// run this server computes (then they share their storage), but a
// checkpoint of another server's run (a fork's, with the same actions only
// up to where this server now is) may not, and ahead's events are dropped
// from the first that differs.
func (x *eventIndex) restore(held, cp *eventLog) {
	if x.ahead == nil && x.n > cp.n {
		// held covers the prefix indexed; the live headers are reused by
		// the restore, so ahead takes a copy of them.
		x.ahead = &eventLog{chunks: slices.Clone(held.chunks), n: held.n}
	}
	if x.ahead != nil && cp.n > held.n {
		if d := firstDifference(x.ahead, cp, held.n, min(x.n, cp.n)); d >= 0 {
			x.forget(d)
		}
	}
	if x.n <= cp.n {
		x.ahead = nil
	}
}

// firstDifference returns the first index in [from, to) at which the keys
// of a and b differ, or -1. A chunk both logs share (the same storage) is
// the same events and is skipped.
func firstDifference(a, b *eventLog, from, to int) int {
	for i := from; i < to; {
		k := i / eventChunk
		end := min(to, (k+1)*eventChunk)
		if ca, cb := a.chunks[k], b.chunks[k]; len(ca) > 0 && len(cb) > 0 && &ca[0] == &cb[0] {
			i = end
			continue
		}
		for ; i < end; i++ {
			if a.at(i).key() != b.at(i).key() {
				return i
			}
		}
	}
	return -1
}
