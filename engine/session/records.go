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
	// Last keeps the last Limit records that pass instead of the first
	// (still in order): the page asks for the latest decision before a step
	// in one call, however far back it lies.
	Last bool
}

// FilterRecords returns the records of rec that pass f, in order, and how
// many passed in all (the limit cuts the list, not the count).
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
	pass := func(source string, kind trace.Kind) bool {
		return (len(kinds) == 0 || kinds[kind.String()]) && (len(sources) == 0 || sources[source])
	}
	from := int(max(f.From, 1) - 1)
	to := rec.Len()
	if f.To > 0 {
		to = int(min(f.To, uint64(to)))
	}
	// skip is how many passing records come before those returned: none,
	// or for Last all but the last limit of them, counted first without
	// decoding a payload.
	skip := 0
	if f.Last {
		passing := 0
		rec.Filter(from, to, func(source string, kind trace.Kind) bool {
			if pass(source, kind) {
				passing++
			}
			return false
		}, nil)
		skip = max(passing-limit, 0)
	}
	out := []trace.Record{}
	total := 0
	keep := func(source string, kind trace.Kind) bool {
		if !pass(source, kind) {
			return false
		}
		total++
		return total > skip && len(out) < limit
	}
	rec.Filter(from, to, keep, func(r trace.Record) bool {
		out = append(out, r)
		return true
	})
	return out, total
}
