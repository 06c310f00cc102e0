package session

import "github.com/rolloutlab/rolloutlab/engine/trace"

// RecordFilter selects trace records.
type RecordFilter struct {
	// From and To bound sequence numbers, inclusive; 0 means unbounded.
	From, To uint64
	// Kinds and Sources, when non-empty, keep only records of those kinds
	// ("decision", "queue", ...) and sources ("replicaset-controller", ...).
	Kinds, Sources []string
	// Limit caps the records returned (default 500, at most 10,000).
	Limit int
}

// FilterRecords returns the records of rec that pass f, in order, and how
// many passed before the limit cut the list.
func FilterRecords(rec *trace.Recorder, f RecordFilter) ([]trace.Record, int) {
	limit := f.Limit
	if limit <= 0 {
		limit = 500
	}
	limit = min(limit, 10000)
	kinds := map[string]bool{}
	for _, k := range f.Kinds {
		kinds[k] = true
	}
	sources := map[string]bool{}
	for _, s := range f.Sources {
		sources[s] = true
	}
	out := []trace.Record{}
	total := 0
	rec.Each(0, func(r trace.Record) bool {
		if (f.From > 0 && r.Seq < f.From) || (f.To > 0 && r.Seq > f.To) {
			return true
		}
		if len(kinds) > 0 && !kinds[r.Kind().String()] {
			return true
		}
		if len(sources) > 0 && !sources[r.Source] {
			return true
		}
		total++
		if len(out) < limit {
			out = append(out, r)
		}
		return true
	})
	return out, total
}
