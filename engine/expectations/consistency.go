package expectations

import (
	"errors"
	"sort"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"
)

// Resource is a group resource the stale-cache gate tracks.
type Resource uint8

const (
	// ResourcePods is core "pods": pod creates and adoptions.
	ResourcePods Resource = iota
	// ResourceReplicaSets is "replicasets.apps": the RS status writes.
	ResourceReplicaSets
	numResources
)

// String returns the group resource as upstream prints it.
func (r Resource) String() string {
	switch r {
	case ResourcePods:
		return "pods"
	case ResourceReplicaSets:
		return "replicasets.apps"
	default:
		return "unknown"
	}
}

// MarshalText renders the resource by name in JSON.
func (r Resource) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// ErrStale matches (errors.Is) every *StaleError.
var ErrStale = errors.New("expectations: informer cache older than own writes")

// StaleError is returned by EnsureReady when an informer has not yet applied
// a write the controller made.
type StaleError struct {
	Resource Resource
	// ReadRV is the informer store's last applied resourceVersion.
	ReadRV string
	// WrittenRV is the highest resourceVersion the controller wrote.
	WrittenRV string
}

// Error returns upstream's text exactly.
func (e *StaleError) Error() string {
	return "read version: " + e.ReadRV + " is not as new as written version: " + e.WrittenRV +
		" for group resource " + e.Resource.String()
}

// Is makes errors.Is(err, ErrStale) true.
func (e *StaleError) Is(target error) bool { return target == ErrStale }

// ownerWrites is one ReplicaSet's record.
type ownerWrites struct {
	uid types.UID
	// written[r] is the highest well-formed RV written for r, "" when none.
	written [numResources]string
}

// ConsistencyStore is the stale-cache gate of the ReplicaSet controller,
// keyed by ReplicaSet key "ns/name".
type ConsistencyStore struct {
	// owners holds a record from the first RecordWrite until EnsureReady
	// passes or Clear/ClearAny removes it. A record may hold no RV at all
	// (only malformed writes since its UID changed); it then passes.
	owners map[string]*ownerWrites
}

// NewConsistencyStore returns an empty gate.
func NewConsistencyStore() *ConsistencyStore {
	return &ConsistencyStore{owners: map[string]*ownerWrites{}}
}

// CompareRV compares two resourceVersions as decimal numbers: a longer
// string is larger; equal lengths compare lexically. It returns -1, 0 or +1,
// and ok false when either is not a positive decimal without leading zeros.
//
// Examples: ("9", "10") → -1; ("120", "119") → +1; ("42", "42") → 0;
// ("", "1"), ("007", "8") → not ok.
func CompareRV(a, b string) (cmp int, ok bool) {
	c, err := resourceversion.CompareResourceVersion(a, b)
	return c, err == nil
}

// RecordWrite notes that the controller wrote resource at rv on behalf of
// owner (UID uid). The highest RV per resource is kept. A record held for a
// different UID (an RS re-created under the same name) is replaced, even
// when rv itself is malformed and therefore not recorded.
func (s *ConsistencyStore) RecordWrite(owner string, uid types.UID, resource Resource, rv string) {
	if resource >= numResources {
		return
	}
	rec := s.owners[owner]
	if rec == nil || rec.uid != uid {
		rec = &ownerWrites{uid: uid}
		s.owners[owner] = rec
	}
	if _, ok := CompareRV(rv, rv); !ok {
		return
	}
	if cur := rec.written[resource]; cur == "" {
		rec.written[resource] = rv
	} else if c, _ := CompareRV(cur, rv); c < 0 {
		rec.written[resource] = rv
	}
}

// EnsureReady reports whether the informers have caught up with owner's
// writes. readRV returns an informer store's last applied resourceVersion
// (store-wide). With no record it returns nil. Otherwise, for pods and then
// replicasets.apps, a written RV newer than the read RV fails with a
// *StaleError; an empty or malformed read RV is skipped. When every resource
// passes, the record is deleted and nil is returned.
func (s *ConsistencyStore) EnsureReady(owner string, readRV func(Resource) string) error {
	rec := s.owners[owner]
	if rec == nil {
		return nil
	}
	for r := Resource(0); r < numResources; r++ {
		w := rec.written[r]
		if w == "" {
			continue
		}
		read := readRV(r)
		if c, ok := CompareRV(w, read); ok && c > 0 {
			return &StaleError{Resource: r, ReadRV: read, WrittenRV: w}
		}
	}
	delete(s.owners, owner)
	return nil
}

// Clear removes owner's record if it belongs to uid (the RS delete handler).
func (s *ConsistencyStore) Clear(owner string, uid types.UID) {
	if rec := s.owners[owner]; rec != nil && rec.uid == uid {
		delete(s.owners, owner)
	}
}

// ClearAny removes owner's record whatever its UID (a sync that finds the RS
// gone).
func (s *ConsistencyStore) ClearAny(owner string) { delete(s.owners, owner) }

// ConsistencyEntry is one record as the UI sees it.
type ConsistencyEntry struct {
	Owner string    `json:"owner"`
	UID   types.UID `json:"uid"`
	// PodsRV and ReplicaSetsRV are the highest written RVs ("" when none).
	PodsRV        string `json:"podsRV"`
	ReplicaSetsRV string `json:"replicaSetsRV"`
}

// Snapshot returns every record, sorted by owner.
func (s *ConsistencyStore) Snapshot() []ConsistencyEntry {
	out := make([]ConsistencyEntry, 0, len(s.owners))
	for owner, rec := range s.owners {
		out = append(out, ConsistencyEntry{
			Owner: owner, UID: rec.uid,
			PodsRV: rec.written[ResourcePods], ReplicaSetsRV: rec.written[ResourceReplicaSets],
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Owner < out[j].Owner })
	return out
}
