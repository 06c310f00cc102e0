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
