package main

import "sync"

// writeLimiter bounds how many scenarios one client may store per window.
//
// It is an in-memory fixed-window counter per client address, kept by each
// Worker isolate: Cloudflare may run several isolates, so the bound is per
// isolate (a client reaching several isolates gets at most limit × isolates
// writes per window). That is enough to stop one client from filling KV in a
// loop without a KV read and write on every POST; a deployment that needs a
// global bound adds a Cloudflare rate-limiting rule in front.
type writeLimiter struct {
	mu sync.Mutex
	// limit is the number of writes allowed per client per window.
	limit int
	// windowMs is the window length in milliseconds.
	windowMs int64
	// maxClients caps the table; when full, the oldest window is dropped
	// first (all windows are reset together, which only ever lets more in).
	maxClients int
	// windowStart is the start of the current window (ms); counts belong to it.
	windowStart int64
	// counts holds writes per client in the current window.
	counts map[string]int
}

func newWriteLimiter(limit int, windowMs int64, maxClients int) *writeLimiter {
	return &writeLimiter{limit: limit, windowMs: windowMs, maxClients: maxClients, counts: map[string]int{}}
}

// allow records one write by client at nowMs and reports whether it is
// within the limit.
func (l *writeLimiter) allow(client string, nowMs int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if nowMs-l.windowStart >= l.windowMs || nowMs < l.windowStart {
		l.windowStart = nowMs
		clear(l.counts)
	}
	if _, ok := l.counts[client]; !ok && len(l.counts) >= l.maxClients {
		clear(l.counts)
	}
	if l.counts[client] >= l.limit {
		return false
	}
	l.counts[client]++
	return true
}
