package trace

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/internal/inplace"
)

// SchemaVersion is the version of the JSON trace format. Bump it when a field
// is renamed or removed; adding a field is compatible.
const SchemaVersion = 1

// Recorder collects records in order. It is not safe for concurrent use (the
// engine is single-threaded).
type Recorder struct {
	clock *clock.Clock
	seed  uint64
	// step is stamped on every record emitted until the next SetStep.
	step int
	// chunks hold the records in order, append-only: record i (Seq i+1) is
	// chunks[i/chunkSize][i%chunkSize]. Every chunk but the last is full;
	// only the first grows by reallocation, later ones are allocated at
	// chunkSize, so a long trace is never copied to grow. Snapshot: yes
	// (replaces the former records slice).
	chunks [][]Record
	// n is the number of records. Snapshot: yes.
	n int
}

// chunkSize is the number of records per chunk. Traces of up to chunkSize
// records live in one slice, so Records and Slice share it without copying.
const chunkSize = 8192

// NewRecorder returns an empty recorder reading time from c. The seed is
// printed at the top of every rendering of the trace.
func NewRecorder(c *clock.Clock, seed uint64) *Recorder {
	return &Recorder{clock: c, seed: seed}
}

// Seed returns the seed the trace was recorded with.
func (r *Recorder) Seed() uint64 { return r.seed }

// SetStep stamps subsequent records with step n.
func (r *Recorder) SetStep(n int) { r.step = n }

// Step returns the step stamped on new records.
func (r *Recorder) Step() int { return r.step }

// Emit appends a record from source with payload p and returns its sequence
// number.
func (r *Recorder) Emit(source string, p Payload) uint64 {
	r.n++
	seq := uint64(r.n)
	rec := Record{Seq: seq, Step: r.step, At: r.clock.Elapsed(), Source: source, Data: p}
	r.chunks = inplace.AppendChunk(r.chunks, chunkSize, rec)
	return seq
}

// Forget releases the records before index upTo (0-based) that fill whole
// chunks, for a reader that streams the trace out as it grows and will not
// read them again (the command line's forward-only run). Len and Seq
// numbering are unchanged; reading a released record (At, Slice, Each,
// Records, Since) panics. A checkpoint taken earlier still holds the
// chunks it saw.
func (r *Recorder) Forget(upTo int) {
	// The last chunk stays even when full: Emit appends after it.
	for c := min(upTo/chunkSize, len(r.chunks)-1) - 1; c >= 0 && r.chunks[c] != nil; c-- {
		r.chunks[c] = nil
	}
}

// Len returns the number of records so far.
func (r *Recorder) Len() int { return r.n }

// At returns record i (0-based; its Seq is i+1).
func (r *Recorder) At(i int) Record { return r.chunks[i/chunkSize][i%chunkSize] }

// Slice returns records from..to-1 (0-based, clamped to the trace). The
// result shares the recorder's memory when the range lies in one chunk and
// is a copy otherwise; either way it must not be modified.
func (r *Recorder) Slice(from, to int) []Record {
	from, to = max(from, 0), min(to, r.n)
	if from >= to {
		return nil
	}
	if c := from / chunkSize; c == (to-1)/chunkSize {
		return r.chunks[c][from%chunkSize : (to-1)%chunkSize+1]
	}
	out := make([]Record, 0, to-from)
	for i := from; i < to; {
		c := r.chunks[i/chunkSize]
		part := c[i%chunkSize : min(len(c), i%chunkSize+to-i)]
		out = append(out, part...)
		i += len(part)
	}
	return out
}

// Each calls fn for records from (0-based) on, in order, until fn returns
// false; it copies nothing.
func (r *Recorder) Each(from int, fn func(Record) bool) {
	for i := max(from, 0); i < r.n; {
		c := r.chunks[i/chunkSize]
		for _, rec := range c[i%chunkSize:] {
			if !fn(rec) {
				return
			}
		}
		i += len(c) - i%chunkSize
	}
}

// Records returns all records: Slice(0, Len()), a copy once the trace is
// longer than one chunk. Long traces are better read with Each or Slice.
func (r *Recorder) Records() []Record { return r.Slice(0, r.n) }

// Since returns the records with Seq > seq (see Slice).
func (r *Recorder) Since(seq uint64) []Record {
	if seq >= uint64(r.n) {
		return nil
	}
	return r.Slice(int(seq), r.n)
}

// Header is the first line of every text trace.
func (r *Recorder) Header() string {
	return fmt.Sprintf("# rolloutlab trace v%d seed=%d", SchemaVersion, r.seed)
}

// WriteText writes the header and one line per record.
func (r *Recorder) WriteText(w io.Writer) error {
	if _, err := io.WriteString(w, r.Header()+"\n"); err != nil {
		return err
	}
	var err error
	r.Each(0, func(rec Record) bool {
		_, err = io.WriteString(w, rec.Text()+"\n")
		return err == nil
	})
	return err
}

// Text returns WriteText's output as a string.
func (r *Recorder) Text() string {
	var b strings.Builder
	_ = r.WriteText(&b)
	return b.String()
}

// TypeName returns the payload's Go type name without its package, used as
// the "type" discriminator in JSON.
func TypeName(p Payload) string {
	t := reflect.TypeOf(p)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}
