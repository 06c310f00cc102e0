package trace

// Reader reads a trace's records in order across calls: where Each starts
// from the nearest mark every time, a Reader continues where it stopped
// (the command line writes each step's records as the step is taken). A
// Reader is valid until the trace is restored; Forget may release what it
// has read.
type Reader struct {
	r *Recorder
	// next is the index of the next record to read; at is where it starts
	// once primed.
	next   int
	at     cursor
	primed bool
}

// NewReader returns a Reader standing at record from (0-based).
func (r *Recorder) NewReader(from int) *Reader { return &Reader{r: r, next: max(from, 0)} }

// Next returns the index of the next record the Reader reads.
func (rd *Reader) Next() int { return rd.next }

// Each calls fn for the records from the Reader's position on, in order,
// until fn returns false; the Reader then stands at the record fn refused,
// or at the end of the trace.
func (rd *Reader) Each(fn func(Record) bool) {
	r := rd.r
	if rd.next >= r.n {
		return
	}
	if !rd.primed {
		rd.at, rd.primed = r.seek(rd.next), true
	}
	for ; rd.next < r.n; rd.next++ {
		c := rd.at
		if !fn(r.record(&c, rd.next)) {
			return
		}
		rd.at = c
	}
}
