package expectations

import (
	"sort"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// Timeout is how long a record may stay unfulfilled before it counts as
// satisfied anyway (upstream ExpectationsTimeout). It guards against lost
// watch events.
const Timeout = 5 * time.Minute

// record is one controller's expectations.
type record struct {
	// add and del are the creations and deletions still expected. They may
	// go negative when more events arrive than were expected.
	add, del int64
	// setAt is when the record was last replaced by a Set*/Expect* call;
	// Raise, Lower and the Observed calls leave it alone.
	setAt time.Time
}

// Store holds expectations keyed by controller key "ns/name".
type Store struct {
	clock *clock.Clock
	// records holds the counts. A key is present from the first Set*/Expect*
	// until Delete.
	records map[string]*record
	// deleteKeys holds, per controller key, the pod keys whose deletion is
	// still expected (UID tracking). It is replaced by ExpectDeletionKeys,
	// shrunk by DeletionObservedKey and dropped by Delete; the other Set*
	// calls do not touch it, as upstream keeps it in a separate store.
	deleteKeys map[string]map[string]struct{}
}

// NewStore returns an empty store reading time from c.
func NewStore(c *clock.Clock) *Store {
	return &Store{clock: c, records: map[string]*record{}, deleteKeys: map[string]map[string]struct{}{}}
}

// SetExpectations replaces key's record with (add, del), stamped now.
func (s *Store) SetExpectations(key string, add, del int) {
	s.records[key] = &record{add: int64(add), del: int64(del), setAt: s.clock.Now()}
}

// ExpectCreations replaces key's record with (n, 0).
func (s *Store) ExpectCreations(key string, n int) { s.SetExpectations(key, n, 0) }

// ExpectDeletions replaces key's record with (0, n), without pod keys.
func (s *Store) ExpectDeletions(key string, n int) { s.SetExpectations(key, 0, n) }

// ExpectDeletionKeys records that the pods podKeys ("ns/name") are about to
// be deleted: it replaces key's pending set with podKeys (duplicates
// collapse) and the record with (0, size of the set).
func (s *Store) ExpectDeletionKeys(key string, podKeys []string) {
	set := make(map[string]struct{}, len(podKeys))
	for _, k := range podKeys {
		set[k] = struct{}{}
	}
	s.deleteKeys[key] = set
	s.SetExpectations(key, 0, len(set))
}

// Raise adds (add, del) to key's counts. It does nothing without a record.
func (s *Store) Raise(key string, add, del int) {
	if r := s.records[key]; r != nil {
		r.add += int64(add)
		r.del += int64(del)
	}
}

// Lower subtracts (add, del) from key's counts. It does nothing without a
// record. Counts may go negative.
func (s *Store) Lower(key string, add, del int) { s.Raise(key, -add, -del) }

// CreationObserved lowers key's expected creations by one.
func (s *Store) CreationObserved(key string) { s.Lower(key, 1, 0) }

// DeletionObserved lowers key's expected deletions by one, regardless of
// which pod was deleted (no UID tracking).
func (s *Store) DeletionObserved(key string) { s.Lower(key, 0, 1) }

// DeletionObservedKey records that pod podKey was deleted (or got a
// deletionTimestamp). It lowers the expected deletions by one only when
// podKey is in key's pending set, and removes it, so each pod counts once.
func (s *Store) DeletionObservedKey(key, podKey string) {
	set := s.deleteKeys[key]
	if _, ok := set[podKey]; !ok {
		return
	}
	s.DeletionObserved(key)
	delete(set, podKey)
}

// Delete forgets key: its counts and its pending pod keys.
func (s *Store) Delete(key string) {
	delete(s.records, key)
	delete(s.deleteKeys, key)
}

// Get returns key's counts and whether a record exists.
func (s *Store) Get(key string) (add, del int64, exists bool) {
	r := s.records[key]
	if r == nil {
		return 0, 0, false
	}
	return r.add, r.del, true
}

// PendingDeleteKeys returns the pod keys whose deletion key still expects,
// sorted. It is empty (non-nil) when there are none.
func (s *Store) PendingDeleteKeys(key string) []string {
	out := make([]string, 0, len(s.deleteKeys[key]))
	for k := range s.deleteKeys[key] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Satisfied reports whether the controller may act on key: there is no
// record, the record is fulfilled (add <= 0 and del <= 0), or it expired
// (set more than Timeout ago). An expired record is kept; the next Set*
// replaces it.
func (s *Store) Satisfied(key string) bool { return s.reason(key) != ReasonPending }

func (s *Store) reason(key string) Reason {
	r := s.records[key]
	switch {
	case r == nil:
		return ReasonNoRecord
	case r.add <= 0 && r.del <= 0:
		return ReasonFulfilled
	case s.expired(r):
		return ReasonExpired
	default:
		return ReasonPending
	}
}

func (s *Store) expired(r *record) bool { return s.clock.Since(r.setAt) > Timeout }

// Check evaluates key as Satisfied does and returns the ExpectationsCheck
// payload the controller emits at each sync.
func (s *Store) Check(key string) ExpectationsCheck {
	add, del, _ := s.Get(key)
	reason := s.reason(key)
	return ExpectationsCheck{
		Key: key, Satisfied: reason != ReasonPending, Reason: reason,
		Add: add, Del: del, PendingKeys: s.PendingDeleteKeys(key),
	}
}

// Entry is one record as the UI sees it.
type Entry struct {
	Key string `json:"key"`
	Add int64  `json:"add"`
	Del int64  `json:"del"`
	// PendingDeleteKeys are the pod keys still expected to be deleted, sorted.
	PendingDeleteKeys []string  `json:"pendingDeleteKeys"`
	SetAt             time.Time `json:"setAt"`
	Satisfied         bool      `json:"satisfied"`
	// Expired is true when the record is older than Timeout (whether or not
	// it is also fulfilled).
	Expired bool `json:"expired"`
}

// Snapshot returns every record, sorted by key.
func (s *Store) Snapshot() []Entry {
	keys := make([]string, 0, len(s.records))
	for k := range s.records {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Entry, 0, len(keys))
	for _, k := range keys {
		r := s.records[k]
		out = append(out, Entry{
			Key: k, Add: r.add, Del: r.del, PendingDeleteKeys: s.PendingDeleteKeys(k),
			SetAt: r.setAt, Satisfied: s.Satisfied(k), Expired: s.expired(r),
		})
	}
	return out
}
