package main

// writeLimiter bounds how many scenarios one client may store per window:
// a fixed-window counter per client address.
//
// Where the counts live: the Workers runtime starts a fresh Go instance for
// every request, so Go memory does not outlive a request. On Workers the
// table is a JavaScript Map on the isolate's globalThis (windowtable_js.go),
// which lives as long as the isolate; natively (tests) it is a Go map.
// Cloudflare may run several isolates, so the bound is per isolate: a client
// reaching several isolates gets at most limit × isolates writes per window.
// That stops one client from filling KV in a loop at no KV cost per POST; a
// deployment that needs a global bound adds a Cloudflare rate-limiting rule.
type writeLimiter struct {
	// limit is the number of writes allowed per client per window.
	limit int
	// windowMs is the window length in milliseconds.
	windowMs int64
	// maxClients caps the table; when it is full and a new client arrives,
	// the table is cleared (which only ever lets more writes in).
	maxClients int
	// table holds the current window's start and per-client counts.
	table windowTable
}

// windowTable is the limiter's state: the current window's start (ms) and
// the number of writes per client in that window.
type windowTable interface {
	start() int64
	// reset starts a new, empty window at ms.
	reset(ms int64)
	count(client string) (n int, ok bool)
	setCount(client string, n int)
	size() int
}

// allow records one write by client at nowMs and reports whether it is
// within the limit.
func (l writeLimiter) allow(client string, nowMs int64) bool {
	t := l.table
	if start := t.start(); nowMs-start >= l.windowMs || nowMs < start {
		t.reset(nowMs)
	}
	n, known := t.count(client)
	if !known && t.size() >= l.maxClients {
		t.reset(t.start())
	}
	if n >= l.limit {
		return false
	}
	t.setCount(client, n+1)
	return true
}

// mapTable is a windowTable in Go memory.
type mapTable struct {
	startMs int64
	counts  map[string]int
}

func newMapTable() *mapTable { return &mapTable{counts: map[string]int{}} }

func (m *mapTable) start() int64 { return m.startMs }
func (m *mapTable) reset(ms int64) {
	m.startMs = ms
	clear(m.counts)
}
func (m *mapTable) count(c string) (int, bool) { n, ok := m.counts[c]; return n, ok }
func (m *mapTable) setCount(c string, n int)   { m.counts[c] = n }
func (m *mapTable) size() int                  { return len(m.counts) }
