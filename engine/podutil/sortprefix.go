package podutil

import (
	"math/bits"
	"sort"
)

// sortPrefix leaves in data[0:k] exactly what sort.Sort(data) would leave
// there, in the same order, and the other elements in data[k:] in an
// order of no meaning. k is clamped to [0, data.Len()].
//
// Why not sort.Sort: a scale-down of a large ReplicaSet ranks all its
// pods but deletes at most a burst of them, and a rollout of 10,000
// replicas ranks the old ReplicaSet's thousands of pods once per burst.
// Sorting all of them made the ranking cost grow with the square of the
// replicas. Why not any partial sort: pods that no rule separates are
// common (created in the same instant, ready in the same instant), and
// sort.Sort is not stable, so which of two equivalent pods is deleted
// first is decided by the steps of its algorithm, and upstream's choice
// is the one to show.
//
// So sortPrefix takes the very steps of the standard library's sort.Sort
// (pattern-defeating quicksort: insertion sort for short ranges, a pivot
// from a median of three or a ninther, partitions, a heapsort fallback
// after too many unbalanced partitions), and leaves out only the work on
// ranges that start at or after k behind a partition's pivot. Why that is
// exact, with ActivePodsWithRanks.Less, which is not a strict weak order
// (the UID tie-break within a bucket makes "equivalent" intransitive):
//   - the work on a range moves only elements of the range, and reads and
//     moves nothing right of it;
//   - it may read and move elements left of it: the fix-up walk of a nearly
//     sorted range carries an element left for as long as it is less than
//     its left neighbour, past the range's start;
//   - it cannot get past a partition's pivot: every element right of the
//     pivot was found not less than it when partitioned, and Less is a pure
//     function of its two elements. The element before a range that
//     follows a partition of equal elements is just one of them, so the
//     walk can get past that one;
//   - so a range that starts behind a pivot, at or after k, changes nothing
//     before k, and nothing that a later range reads.
//
// TestSortPrefixMatchesSortSort compares the two for every k on inputs
// full of ties, and TestSortPrefixRanksLikeSortSort on ranked pods.
func sortPrefix(data sort.Interface, k int) {
	n := data.Len()
	k = min(max(k, 0), n)
	if n <= 1 || k == 0 {
		return
	}
	p := prefixSorter{data: data, k: k}
	p.quicksort(0, n, bits.Len(uint(n)), true)
}

// prefixSorter carries sortPrefix's input through its recursion.
type prefixSorter struct {
	data sort.Interface
	// k is the length of the prefix that must come out ordered: ranges
	// starting at k or later, right behind a pivot, are left alone.
	k int
}

// orderHint is what choosing a pivot learnt about a range's order.
type orderHint uint8

const (
	orderUnknown orderHint = iota
	orderAscending
	orderDescending
)

// quicksort orders data[a:b] (the part of it before k) with at most
// badPivots unbalanced partitions before it falls back to heapsort.
// behindPivot says that a is 0 or data[a-1] is the pivot of a partition
// of a range that held data[a:b]: then data[a:b] can be left alone once a
// is at or past k (see sortPrefix).
func (p *prefixSorter) quicksort(a, b, badPivots int, behindPivot bool) {
	const shortRange = 12
	balanced, partitioned := true, true
	for a < p.k || !behindPivot {
		size := b - a
		if size <= shortRange {
			p.insertionSort(a, b)
			return
		}
		if badPivots == 0 {
			p.heapSort(a, b)
			return
		}
		if !balanced {
			p.shuffleMiddle(a, b)
			badPivots--
		}
		pivot, hint := p.choosePivot(a, b)
		if hint == orderDescending {
			p.reverse(a, b)
			// The pivot moves to the mirror position.
			pivot = (b - 1) - (pivot - a)
			hint = orderAscending
		}
		if balanced && partitioned && hint == orderAscending && p.nearlySorted(a, b) {
			return
		}
		// The element before the range is an earlier partition's pivot
		// (nothing in the range is below it) or one of the elements an
		// equal partition put first: when the pivot is not above it, the
		// range likely holds many equal elements. Those equal to the pivot
		// are put first and are done.
		if a > 0 && !p.data.Less(a-1, pivot) {
			a, behindPivot = p.partitionEqual(a, b, pivot), false
			continue
		}
		mid, wasPartitioned := p.partition(a, b, pivot)
		partitioned = wasPartitioned
		left, right := mid-a, b-mid
		if left < right {
			balanced = left >= size/8
			p.quicksort(a, mid, badPivots, behindPivot)
			a, behindPivot = mid+1, true
		} else {
			balanced = right >= size/8
			if mid+1 < p.k {
				p.quicksort(mid+1, b, badPivots, true)
			}
			b = mid
		}
	}
}

// insertionSort orders data[a:b] by moving each element left past the
// larger ones before it.
func (p *prefixSorter) insertionSort(a, b int) {
	for i := a + 1; i < b; i++ {
		for j := i; j > a && p.data.Less(j, j-1); j-- {
			p.data.Swap(j, j-1)
		}
	}
}

// heapSort orders data[a:b] with a max-heap rooted at a.
func (p *prefixSorter) heapSort(a, b int) {
	size := b - a
	for root := (size - 1) / 2; root >= 0; root-- {
		p.sink(a, root, size)
	}
	for last := size - 1; last >= 0; last-- {
		p.data.Swap(a, a+last)
		p.sink(a, 0, last)
	}
}

// sink moves the element at heap position root (data[base+root]) down the
// heap of the first size positions until neither child is larger.
func (p *prefixSorter) sink(base, root, size int) {
	for {
		child := 2*root + 1
		if child >= size {
			return
		}
		if child+1 < size && p.data.Less(base+child, base+child+1) {
			child++
		}
		if !p.data.Less(base+root, base+child) {
			return
		}
		p.data.Swap(base+root, base+child)
		root = child
	}
}

// shuffleMiddle swaps the three elements around the middle of data[a:b]
// with positions drawn from an xorshift sequence seeded with the range's
// length (the same every time for the same length), to break the pattern
// that made the last partition unbalanced. Ranges are longer than 12 here.
func (p *prefixSorter) shuffleMiddle(a, b int) {
	size := b - a
	state := uint64(size)
	mask := uint(1)<<uint(bits.Len(uint(size))) - 1
	for i := a + (size/4)*2 - 1; i <= a+(size/4)*2+1; i++ {
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		other := int(uint(state) & mask)
		if other >= size {
			other -= size
		}
		p.data.Swap(i, a+other)
	}
}

// choosePivot picks the median of three (of three medians of three
// neighbours for ranges of 50 or more) at the quarter points of data[a:b].
// The number of out-of-order pairs it met hints at the range's order: none
// ascending, all twelve descending.
func (p *prefixSorter) choosePivot(a, b int) (int, orderHint) {
	const (
		ninthersFrom = 50
		allSwapped   = 12
	)
	size := b - a
	swaps := 0
	q1, q2, q3 := a+size/4, a+size/4*2, a+size/4*3
	if size >= 8 {
		if size >= ninthersFrom {
			q1 = p.median(q1-1, q1, q1+1, &swaps)
			q2 = p.median(q2-1, q2, q2+1, &swaps)
			q3 = p.median(q3-1, q3, q3+1, &swaps)
		}
		q2 = p.median(q1, q2, q3, &swaps)
	}
	switch swaps {
	case 0:
		return q2, orderAscending
	case allSwapped:
		return q2, orderDescending
	}
	return q2, orderUnknown
}

// median returns which of x, y, z holds the middle element, counting the
// out-of-order pairs it compares in swaps.
func (p *prefixSorter) median(x, y, z int, swaps *int) int {
	x, y = p.ordered(x, y, swaps)
	y, z = p.ordered(y, z, swaps)
	_, y = p.ordered(x, y, swaps)
	return y
}

// ordered returns x and y smaller first (x first when they are equal).
func (p *prefixSorter) ordered(x, y int, swaps *int) (int, int) {
	if p.data.Less(y, x) {
		*swaps++
		return y, x
	}
	return x, y
}

// reverse reverses data[a:b].
func (p *prefixSorter) reverse(a, b int) {
	for i, j := a, b-1; i < j; i, j = i+1, j-1 {
		p.data.Swap(i, j)
	}
}

// nearlySorted fixes up to five adjacent pairs out of order in data[a:b]
// (none in a range under 50 long) and reports whether the range is then
// ordered.
func (p *prefixSorter) nearlySorted(a, b int) bool {
	const (
		maxFixes      = 5
		fixesFromSize = 50
	)
	i := a + 1
	for range maxFixes {
		for i < b && !p.data.Less(i, i-1) {
			i++
		}
		if i == b {
			return true
		}
		if b-a < fixesFromSize {
			return false
		}
		p.data.Swap(i, i-1)
		// The smaller of the pair walks left, down to index 1, not to a:
		// behind a pivot it stops at the range's start, but behind an
		// equal-elements partition it can go on into it (see sortPrefix).
		if i-a >= 2 {
			for j := i - 1; j >= 1 && p.data.Less(j, j-1); j-- {
				p.data.Swap(j, j-1)
			}
		}
		// The larger walks right.
		if b-i >= 2 {
			for j := i + 1; j < b && p.data.Less(j, j-1); j++ {
				p.data.Swap(j, j-1)
			}
		}
	}
	return false
}

// partition moves the elements of data[a:b] below data[pivot] before it
// and the others after it, and returns the pivot's new position and
// whether no element had to move.
func (p *prefixSorter) partition(a, b, pivot int) (int, bool) {
	p.data.Swap(a, pivot)
	lo, hi := a+1, b-1
	for lo <= hi && p.data.Less(lo, a) {
		lo++
	}
	for lo <= hi && !p.data.Less(hi, a) {
		hi--
	}
	if lo > hi {
		p.data.Swap(hi, a)
		return hi, true
	}
	p.data.Swap(lo, hi)
	lo, hi = lo+1, hi-1
	for {
		for lo <= hi && p.data.Less(lo, a) {
			lo++
		}
		for lo <= hi && !p.data.Less(hi, a) {
			hi--
		}
		if lo > hi {
			break
		}
		p.data.Swap(lo, hi)
		lo, hi = lo+1, hi-1
	}
	p.data.Swap(hi, a)
	return hi, false
}

// partitionEqual moves the elements of data[a:b] equal to data[pivot]
// (none is below it) before the larger ones and returns where the larger
// ones start.
func (p *prefixSorter) partitionEqual(a, b, pivot int) int {
	p.data.Swap(a, pivot)
	lo, hi := a+1, b-1
	for {
		for lo <= hi && !p.data.Less(a, lo) {
			lo++
		}
		for lo <= hi && p.data.Less(a, hi) {
			hi--
		}
		if lo > hi {
			return lo
		}
		p.data.Swap(lo, hi)
		lo, hi = lo+1, hi-1
	}
}
