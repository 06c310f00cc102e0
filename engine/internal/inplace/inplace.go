// Package inplace restores checkpointed maps and slices into the live ones
// instead of replacing them: a rewind changes few entries of a large map,
// and overwriting only those allocates nothing (which matters most under
// js/wasm, where garbage collection runs on the page's thread).
package inplace

// Map makes live equal to saved and returns it (saved itself is not
// changed). A nil live map is replaced by a copy.
func Map[M ~map[K]V, K, V comparable](live, saved M) M {
	if live == nil {
		live = make(M, len(saved))
	}
	for k := range live {
		if _, ok := saved[k]; !ok {
			delete(live, k)
		}
	}
	for k, v := range saved {
		if cur, ok := live[k]; !ok || cur != v {
			live[k] = v
		}
	}
	return live
}

// Slice makes live equal to saved, reusing live's array when it is large
// enough, and returns it.
func Slice[S ~[]E, E any](live, saved S) S {
	return append(live[:0], saved...)
}

// Chunks makes live hold saved's chunk headers, reusing live's header
// array, and returns it. Chunks are append-only arrays shared with the
// checkpoint: the last one is clipped to its length, so the next element
// appended goes to a new array and a slot any checkpoint shows is written
// once and never again (checkpoints can then be restored in any order and
// shared between simulations).
func Chunks[T any](live, saved [][]T) [][]T {
	clear(live[min(len(saved), len(live)):])
	live = append(live[:0], saved...)
	if k := len(live) - 1; k >= 0 {
		live[k] = live[k][:len(live[k]):len(live[k])]
	}
	return live
}

// AppendChunk appends v to chunked append-only storage (chunks of size
// elements, every one full but the last) and returns it. A new chunk gets
// a full-size array, except the first, which grows as a slice does (a
// short run stays small); a last chunk that Chunks clipped moves to a
// full-size array once instead of regrowing in steps.
func AppendChunk[T any](chunks [][]T, size int, v T) [][]T {
	last := len(chunks) - 1
	if last < 0 || len(chunks[last]) == size {
		var c []T
		if last >= 0 {
			c = make([]T, 0, size)
		}
		chunks = append(chunks, c)
		last++
	}
	if c := chunks[last]; last > 0 && len(c) == cap(c) {
		chunks[last] = append(make([]T, 0, size), c...)
	}
	chunks[last] = append(chunks[last], v)
	return chunks
}
