// Package appendonly checkpoints slices that only ever grow at the end and
// whose elements never change once appended (the trace, the API server's
// watch log and events): a checkpoint keeps the slice header, sharing the
// elements, instead of copying them.
package appendonly

// Restore returns the live slice rewound (or moved forward) to saved, a
// slice header taken from the same run earlier or later. Going back keeps
// the live backing array, so that a replay appends in place; going forward
// takes saved's array. Either way the elements up to len(saved) are those
// saved holds, as long as every checkpoint still kept belongs to the run
// being restored (a rewritten future drops the checkpoints after it).
func Restore[T any](live, saved []T) []T {
	if len(saved) <= len(live) {
		return live[:len(saved)]
	}
	return saved
}
