package trace

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/clock"
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
	// records is append-only; records[i].Seq == i+1.
	records []Record
}

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
	seq := uint64(len(r.records) + 1)
	r.records = append(r.records, Record{Seq: seq, Step: r.step, At: r.clock.Elapsed(), Source: source, Data: p})
	return seq
}

// Len returns the number of records so far.
func (r *Recorder) Len() int { return len(r.records) }

// Records returns all records. The slice must not be modified.
func (r *Recorder) Records() []Record { return r.records }

// Since returns the records with Seq > seq. The slice must not be modified.
func (r *Recorder) Since(seq uint64) []Record {
	if seq >= uint64(len(r.records)) {
		return nil
	}
	return r.records[seq:]
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
	for _, rec := range r.records {
		if _, err := io.WriteString(w, rec.Text()+"\n"); err != nil {
			return err
		}
	}
	return nil
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
