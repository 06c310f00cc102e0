package trace

import (
	"encoding/binary"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// SchemaVersion is the version of the JSON trace format. Bump it when a field
// is renamed or removed; adding a field is compatible.
const SchemaVersion = 1

// Recorder collects records in order. It is not safe for concurrent use (the
// engine is single-threaded).
//
// Records are stored encoded (see Codec): record i is a byte string in
// data holding its codec, an interned source, its step and time as deltas
// from record i-1, and its payload's fields. Readers get Records back, built
// on each read; reading is rare next to emitting.
type Recorder struct {
	clock *clock.Clock
	seed  uint64
	// position holds the counts, the current step and the intern cache.
	// Snapshot: yes.
	position
	// data holds the encoded records in order, each one length-prefixed,
	// append-only. A record never spans two chunks; chunk k has capacity
	// dataChunkCap(k), so a long trace is never copied to grow. Snapshot:
	// yes.
	data [][]byte
	// marks holds the position of every markEvery-th record, so that a
	// read starts at most markEvery-1 records before the one it wants.
	// Append-only; a checkpoint shares it (see Restore). Snapshot: yes.
	marks []cursor
	// strs is the string table that String fields and sources index,
	// in chunks of stringChunkSize. Snapshot: yes.
	strs [][]string
	// boxed holds the payloads Emit recorded, in order, from the
	// boxedBase-th on (Forget drops earlier ones). Append-only, shared
	// like marks. Snapshot: yes.
	boxed []Payload
	// enc is the Encoder Begin hands out, its buffer reused by every
	// record (empty between records).
	enc Encoder
}

// position is where a Recorder stands: what a checkpoint copies besides
// the storage it shares.
type position struct {
	// n is the number of records.
	n int
	// step is stamped on every record emitted until the next SetStep.
	step int
	// nstr is the length of the string table.
	nstr int
	// nboxed is the number of payloads Emit recorded, boxedBase the index
	// of boxed[0].
	nboxed, boxedBase int
	// lastStep and lastAt are the step and time of record n-1 (zero
	// before the first), from which the next record's are deltas.
	lastStep int
	lastAt   time.Duration
	// slots is the intern cache (see intern).
	slots internCache
}

// cursor is a read position in the encoded trace: where a record starts,
// the length of the string table and the number of boxed payloads before
// it, and the step and time of the record before it.
type cursor struct {
	chunk, off, nstr, boxed, step int
	at                            time.Duration
}

const (
	// markEvery is the number of records per mark.
	markEvery = 64
	// dataChunkMin and dataChunkMax bound a data chunk's capacity (a
	// record longer than dataChunkMax gets a chunk of its own size).
	dataChunkMin = 512
	dataChunkMax = 32 << 10
	// chunkHeader is the length of a data chunk's header: the length of
	// the string table before its first record (4 bytes).
	chunkHeader = 4
	// overflowAdded in a record's added-strings bits means the count is
	// the record's last four bytes.
	overflowAdded = 7
)

// NewRecorder returns an empty recorder reading time from c. The seed is
// printed at the top of every rendering of the trace.
func NewRecorder(c *clock.Clock, seed uint64) *Recorder {
	r := &Recorder{clock: c, seed: seed}
	r.enc.r = r
	return r
}

// Seed returns the seed the trace was recorded with.
func (r *Recorder) Seed() uint64 { return r.seed }

// SetStep stamps subsequent records with step n.
func (r *Recorder) SetStep(n int) { r.step = n }

// Step returns the step stamped on new records.
func (r *Recorder) Step() int { return r.step }

// Emit appends a record from source with payload p and returns its sequence
// number. Emitters on the hot path write their payload with Begin instead,
// which does not box it.
func (r *Recorder) Emit(source string, p Payload) uint64 {
	e := r.Begin(source, Codec{})
	e.uint(uint64(r.nboxed))
	seq := e.End()
	r.boxed = append(r.boxed, p)
	r.nboxed++
	return seq
}

// Begin starts a record from source whose payload c decodes; the caller
// writes the payload's fields to the returned Encoder and calls its End,
// before emitting anything else.
func (r *Recorder) Begin(source string, c Codec) *Encoder {
	e := &r.enc
	e.buf = append(e.buf[:0], c.id)
	e.lowest = r.nstr
	e.String(source)
	e.Int(int64(r.step-r.lastStep), int64(r.clock.Elapsed()-r.lastAt))
	return e
}

// appendEncoded appends the record in r.enc and returns its sequence
// number. The record's first byte gets the number of strings it added in
// its high bits.
func (r *Recorder) appendEncoded() uint64 {
	b, added := r.enc.buf, r.enc.added
	if added >= overflowAdded {
		b = binary.LittleEndian.AppendUint32(b, uint32(added))
		added = overflowAdded
	}
	b[0] |= byte(added) << 5
	need := len(b) + binary.MaxVarintLen64 // with its length prefix
	last := len(r.data) - 1
	if last < 0 || len(r.data[last])+need > dataChunkCap(last) {
		// A new chunk starts with the lowest string index its records
		// name: its first record's lowest, as the intern cache starts
		// empty again for the next ones. Forget releases the strings
		// below it when it releases the chunks before.
		last++
		floor := binary.LittleEndian.AppendUint32(make([]byte, 0, max(dataChunkCap(last), need)), uint32(min(r.enc.lowest, r.nstr)))
		r.data = append(r.data, floor)
		r.slots = internCache{}
	}
	if c := r.data[last]; cap(c) < dataChunkCap(last) {
		// A new chunk, or the last one clipped by a restore (moved to a
		// full-size array once, as a trace recorded straight through has
		// it).
		r.data[last] = append(make([]byte, 0, max(dataChunkCap(last), need)), c...)
	}
	if r.n%markEvery == 0 {
		r.marks = append(r.marks, cursor{chunk: last, off: len(r.data[last]), nstr: r.nstr - r.enc.added, boxed: r.nboxed, step: r.lastStep, at: r.lastAt})
	}
	c := binary.AppendUvarint(r.data[last], uint64(len(b)))
	r.data[last] = append(c, b...)
	r.enc.buf, r.enc.added, r.enc.lowest = b[:0], 0, 0
	r.lastStep, r.lastAt = r.step, r.clock.Elapsed()
	r.n++
	return uint64(r.n)
}

// dataChunkCap is the capacity of data chunk k: dataChunkMin doubled k
// times, at most dataChunkMax (a short trace stays small).
func dataChunkCap(k int) int {
	return dataChunkMin << min(k, 6)
}

// seek returns the position of record i (0 <= i < n).
func (r *Recorder) seek(i int) cursor {
	c := r.marks[i/markEvery]
	for j := i - i%markEvery; j < i; j++ {
		r.read(&c, false)
	}
	return c
}

// read decodes the record at c and moves c past it. Without full, the
// payload is not decoded (p is nil).
func (r *Recorder) read(c *cursor, full bool) (source string, kind Kind, p Payload) {
	if c.off >= len(r.data[c.chunk]) { // at the end, or released by Forget
		c.chunk, c.off = c.chunk+1, chunkHeader
	}
	b := r.data[c.chunk][c.off:]
	l, k := binary.Uvarint(b)
	body := b[k : k+int(l)]
	c.off += k + int(l)
	d := Decoder{r: r, b: body[1:], nstr: c.nstr}
	added := int(body[0] >> 5)
	if added == overflowAdded {
		added = int(binary.LittleEndian.Uint32(body[len(body)-4:]))
	}
	c.nstr += added
	source = d.String()
	c.step += int(d.int())
	c.at += time.Duration(d.int())
	if id := body[0] & (maxCodecs - 1); id != 0 {
		if kind = codecs[id].kind; full {
			p = codecs[id].decode(&d)
		}
	} else {
		boxed := r.boxed[int(d.uint())-r.boxedBase]
		kind = boxed.Kind()
		if full {
			p = boxed
		}
	}
	return source, kind, p
}

// Forget releases the storage of records before index upTo (0-based) that
// fills whole chunks, for a reader that streams the trace out as it grows
// and will not read them again (the command line's forward-only run). Len
// and Seq numbering are unchanged; reading a released record (At, Slice,
// Each, Records, Since) panics. A checkpoint taken earlier still holds the
// storage it saw.
func (r *Recorder) Forget(upTo int) {
	if upTo = min(upTo, r.n-1); upTo < 0 {
		return
	}
	m := r.marks[upTo/markEvery]
	for c := m.chunk - 1; c >= 0 && r.data[c] != nil; c-- {
		r.data[c] = nil
	}
	floor := int(binary.LittleEndian.Uint32(r.data[m.chunk]))
	for k := floor/stringChunkSize - 1; k >= 0 && r.strs[k] != nil; k-- {
		r.strs[k] = nil
	}
	if m.boxed > r.boxedBase {
		r.boxed, r.boxedBase = r.boxed[m.boxed-r.boxedBase:], m.boxed
	}
}

// Len returns the number of records so far.
func (r *Recorder) Len() int { return r.n }

// At returns record i (0-based; its Seq is i+1). It decodes up to
// markEvery-1 records before it: read runs of records with Each.
func (r *Recorder) At(i int) Record {
	if i < 0 || i >= r.n {
		panic(fmt.Sprintf("trace: record %d of %d", i, r.n))
	}
	c := r.seek(i)
	return r.record(&c, i)
}

// record reads record i at c and moves c past it.
func (r *Recorder) record(c *cursor, i int) Record {
	src, _, p := r.read(c, true)
	return Record{Seq: uint64(i + 1), Step: c.step, At: c.at, Source: src, Data: p}
}

// Slice returns a new slice of records from..to-1 (0-based, clamped to the
// trace).
func (r *Recorder) Slice(from, to int) []Record {
	from, to = max(from, 0), min(to, r.n)
	if from >= to {
		return nil
	}
	out := make([]Record, to-from)
	c := r.seek(from)
	for i := range out {
		out[i] = r.record(&c, from+i)
	}
	return out
}

// Each calls fn for records from (0-based) on, in order, until fn returns
// false.
func (r *Recorder) Each(from int, fn func(Record) bool) {
	from = max(from, 0)
	if from >= r.n {
		return
	}
	c := r.seek(from)
	for i := from; i < r.n; i++ {
		if !fn(r.record(&c, i)) {
			return
		}
	}
}

// Records returns all records: Slice(0, Len()). Long traces are better
// read with Each.
func (r *Recorder) Records() []Record { return r.Slice(0, r.n) }

// Filter calls fn for the records from..to-1 (0-based, clamped to the
// trace) that keep accepts, in order, until fn returns false. keep sees a
// record's source and kind: the records it rejects are not decoded, so
// filtering a long trace costs little more than its matches.
func (r *Recorder) Filter(from, to int, keep func(source string, kind Kind) bool, fn func(Record) bool) {
	from, to = max(from, 0), min(to, r.n)
	if from >= to {
		return
	}
	c := r.seek(from)
	for i := from; i < to; i++ {
		at := c
		if source, kind, _ := r.read(&c, false); !keep(source, kind) {
			continue
		}
		c = at
		if !fn(r.record(&c, i)) {
			return
		}
	}
}

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
