package podutil

// SlowStartBatch calls fn count times in batches of growing size: the first
// batch has min(initialBatchSize, count) calls and each next batch
// min(2*previous, remaining). Every call of a batch is attempted; after the
// first batch with any failure it stops and returns. successes counts the
// calls that returned nil, batches lists the batch sizes attempted, and err
// is the first failure (lowest i) of the failing batch. fn receives the
// running call index 0..count-1.
//
// Upstream runs a batch's calls concurrently; here they run one after
// another in index order, which keeps the simulation deterministic and
// yields the same counts.
//
// Example: count=10, initialBatchSize=1 gives batches [1 2 4 3]. If only the
// first 5 calls succeed, it runs [1 2 4] (7 calls) and returns 5 successes.
func SlowStartBatch(count, initialBatchSize int, fn func(i int) error) (successes int, batches []int, err error) {
	remaining := count
	next := 0
	for size := min(remaining, initialBatchSize); size > 0; size = min(2*size, remaining) {
		batches = append(batches, size)
		var firstErr error
		for k := 0; k < size; k++ {
			if e := fn(next); e != nil {
				if firstErr == nil {
					firstErr = e
				}
			} else {
				successes++
			}
			next++
		}
		if firstErr != nil {
			return successes, batches, firstErr
		}
		remaining -= size
	}
	return successes, batches, nil
}
