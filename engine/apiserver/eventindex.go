package apiserver

import "slices"

// eventIndex finds stored Events by namespace and name, for reads and for
// the name check of a create. A long run stores tens of thousands of
// Events, and a seek restores a checkpoint and replays; deleting the keys
// of the events a restore cuts and adding those it brings back cost 15% of
// a seek in a 100k-step run (CPU profile of BenchmarkSeekWorst). So a
// restore changes nothing in the map: entries whose event is no longer
// held stay, and every read checks the entry it finds against the events
// held (an event's key never changes). Going back, the index keeps the log
// it was built on (ahead): a replay that stores the same events again finds
// each one indexed already, and a restore forward into that stretch needs
// no work at all. The first event that differs from ahead's at its index
// (the run took another course) drops ahead.
//
// Invariant: for every i < n, at[key(i)] == i, where key(i) is the key of
// the held event i when i is below the number held, else ahead's event i;
// ahead (kept only while n is above the number held) agrees with the
// held events, key for key, on every index both hold. Keys are unique
// among the events held, so an entry that points at a held event of its
// own key is that event, and a key not found that way is not held when n
// covers every event held. Snapshot: no (it follows from the events held,
// and a restore needs it to be neither copied nor cut; see restore).
type eventIndex struct {
	// at maps a key to an event's index. Besides the entries the invariant
	// names it may hold stale ones, of events no longer held.
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
		// The run goes another way from here: what ahead holds past n is
		// not this run's.
		x.ahead, x.n = nil, n
	}
	x.catchUp(held)
	if len(x.at) == n {
		// No stale entries: one probe of the map both checks the name and
		// claims it. A taken name gets its index back (a scan; rare).
		x.at[key] = n
		if len(x.at) == n {
			x.at[key] = x.scan(held, key)
			return false
		}
	} else {
		if _, ok := x.heldAt(held, key); ok {
			return false
		}
		x.at[key] = n
	}
	x.n = n + 1
	return true
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
// two agree up to the shorter, being of the same run). Going back past the
// prefix indexed, the index keeps the log it was built on as ahead: the
// events a replay stores again, or a restore forward brings back, are then
// found indexed. ahead and cp agree where both hold events: both are of
// the run the server computes (a checkpoint is never restored past an
// action that changed the run, and a replay that stores another event at
// an index ahead covers drops ahead, see claim).
func (x *eventIndex) restore(held, cp *eventLog) {
	if x.ahead == nil && x.n > cp.n {
		// held covers the prefix indexed; the live headers are reused by
		// the restore, so ahead takes a copy of them.
		x.ahead = &eventLog{chunks: slices.Clone(held.chunks), n: held.n}
	}
	if x.n <= cp.n {
		x.ahead = nil
	}
}
