// Package appendonly checkpoints slices that only ever grow at the end and
// whose elements never change once appended (the API server's events): a
// checkpoint keeps only the length. (The trace, stored in chunks, and the
// watch log, whose head is dropped, keep slice headers instead on the same
// reasoning: see trace.Checkpoint and apiserver.Checkpoint.)
//
// Rewinding truncates the live slice in place, keeping its backing array:
// the elements past the new length stay there, and a replay writes the same
// elements over them. So the live array always holds the elements of the
// furthest step computed, and a checkpoint taken later in the same run can
// be restored by extending the slice again. (A rewritten future overwrites
// them, but it also drops every checkpoint after it.) Keeping lengths
// instead of slice headers also keeps checkpoints from pinning the arrays
// the slice outgrew.
package appendonly

import "fmt"

// Restore returns live cut or extended to n elements.
func Restore[T any](live []T, n int) []T {
	if n > cap(live) {
		panic(fmt.Sprintf("appendonly: restoring %d elements of a slice that never held more than %d", n, cap(live)))
	}
	return live[:n]
}
