package expectations

import "maps"

// Checkpoint is a Store's whole mutable state at one moment: every
// record's counts and time, and the pod keys whose deletion is expected.
// Records change in place, so they are copied.
type Checkpoint struct {
	records    map[string]record
	deleteKeys map[string]map[string]struct{}
}

// Checkpoint saves the store's state.
func (s *Store) Checkpoint() *Checkpoint {
	cp := &Checkpoint{records: make(map[string]record, len(s.records)), deleteKeys: cloneKeySets(s.deleteKeys)}
	for k, r := range s.records {
		cp.records[k] = *r
	}
	return cp
}

// Restore puts the store back in the saved state; the checkpoint can be
// restored again.
func (s *Store) Restore(cp *Checkpoint) {
	s.records = make(map[string]*record, len(cp.records))
	for k, r := range cp.records {
		r := r
		s.records[k] = &r
	}
	s.deleteKeys = cloneKeySets(cp.deleteKeys)
}

func cloneKeySets(m map[string]map[string]struct{}) map[string]map[string]struct{} {
	out := make(map[string]map[string]struct{}, len(m))
	for k, set := range m {
		out[k] = maps.Clone(set)
	}
	return out
}

// ConsistencyCheckpoint is a ConsistencyStore's whole mutable state: the
// highest versions written per owner (copied; records change in place).
type ConsistencyCheckpoint struct{ owners map[string]ownerWrites }

// Checkpoint saves the gate's state.
func (s *ConsistencyStore) Checkpoint() *ConsistencyCheckpoint {
	cp := &ConsistencyCheckpoint{owners: make(map[string]ownerWrites, len(s.owners))}
	for k, w := range s.owners {
		cp.owners[k] = *w
	}
	return cp
}

// Restore puts the gate back in the saved state.
func (s *ConsistencyStore) Restore(cp *ConsistencyCheckpoint) {
	s.owners = make(map[string]*ownerWrites, len(cp.owners))
	for k, w := range cp.owners {
		w := w
		s.owners[k] = &w
	}
}
