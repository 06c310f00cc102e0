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
	keep := func(source string, kind trace.Kind) bool {
		if (len(kinds) > 0 && !kinds[kind.String()]) || (len(sources) > 0 && !sources[source]) {
			return false
		}
		total++
		return len(out) < limit
	}
	to := rec.Len()
	if f.To > 0 {
		to = int(min(f.To, uint64(to)))
	}
	rec.Filter(int(max(f.From, 1)-1), to, keep, func(r trace.Record) bool {
		out = append(out, r)
		return true
	})
	return out, total
}
