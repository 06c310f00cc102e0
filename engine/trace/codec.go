package trace

import "encoding/binary"

// Codec names how one payload type is written compactly into the trace and
// read back. The hot emitters (API requests, watch deliveries, queue
// operations, kubelet transitions, Events) write their fields through an
// Encoder instead of handing Emit a Payload: boxing a payload into the
// interface and keeping a 56-byte record header per record cost more
// memory than the rest of the engine's writes together. Other payloads go
// through Emit unchanged.
type Codec struct {
	// id is the codec's index in codecs; 0 is Emit's boxed payloads.
	id uint8
}

// codecs holds every codec's payload kind and decode function by id. It is filled by the
// package-level NewCodec calls while packages initialise (in the import
// graph's fixed order) and only read afterwards, so it is not simulation
// state.
var codecs = []codec{{}}

// codec is what a Codec's id stands for.
type codec struct {
	// kind is the Kind of every payload the codec writes.
	kind   Kind
	decode func(*Decoder) Payload
}

// maxCodecs bounds the number of codecs: a record's first byte holds its
// codec in the low bits and the number of strings it added in the high
// three.
const maxCodecs = 32

// NewCodec registers how to rebuild a payload of kind kind from the fields
// its emitter wrote, in the same order and with the same Encoder methods.
// Call it only to initialise a package-level variable.
func NewCodec(kind Kind, decode func(*Decoder) Payload) Codec {
	if len(codecs) >= maxCodecs {
		panic("trace: too many codecs")
	}
	codecs = append(codecs, codec{kind: kind, decode: decode})
	return Codec{id: uint8(len(codecs) - 1)}
}

// Encoder writes one record's fields (see Recorder.Begin). The fields are
// variable-length integers and indices into the recorder's string table,
// so zeros and repeated strings take one byte.
type Encoder struct {
	r *Recorder
	// buf holds the record being written: header, then fields.
	buf []byte
	// added is the number of strings the record added to the table;
	// lowest is the lowest table index it names (the table's length if
	// none).
	added, lowest int
}

// String writes each of ss, interned: every record naming the same
// string shares one copy of it. Use it for names, keys and constants.
//
// A string reference is 0 for "", 1 for a string this record adds to the
// table (the next entry), and otherwise the shorter of 2+2*d, where d
// counts back from the table's last entry, and 3+2*i, i being its index:
// both the names of the objects a run is working on (recent entries) and
// the constants added first (low indices) take one or two bytes.
func (e *Encoder) String(ss ...string) {
	for _, s := range ss {
		if s == "" {
			e.uint(0)
			continue
		}
		i, added := e.r.intern(s)
		e.ref(i, added)
	}
}

// UniqueString writes s without looking it up, for text that rarely
// repeats, such as a formatted message: it is added to the table. It
// reads back with String.
func (e *Encoder) UniqueString(s string) {
	if s == "" {
		e.uint(0)
		return
	}
	e.ref(e.r.addString(s), true)
}

// ref writes a reference to table entry i (see String).
func (e *Encoder) ref(i int, added bool) {
	e.lowest = min(e.lowest, i)
	if added {
		e.added++
		e.uint(1)
		return
	}
	if d := e.r.nstr - 1 - i; d < i {
		e.uint(2 + 2*uint64(d))
	} else {
		e.uint(3 + 2*uint64(i))
	}
}

// List writes the list ss, keeping nil distinct from empty.
func (e *Encoder) List(ss []string) {
	if ss == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(ss)) + 1)
	e.String(ss...)
}

// Int writes each of vs (small magnitudes take one byte).
func (e *Encoder) Int(vs ...int64) {
	for _, v := range vs {
		e.buf = binary.AppendVarint(e.buf, v)
	}
}

// uint writes u.
func (e *Encoder) uint(u uint64) { e.buf = binary.AppendUvarint(e.buf, u) }

// End appends the record and returns its sequence number.
func (e *Encoder) End() uint64 { return e.r.appendEncoded() }

// Decoder reads one record's fields in the order its Encoder wrote them.
type Decoder struct {
	r *Recorder
	b []byte
	// nstr is the length the string table had when the field being read
	// was written.
	nstr int
}

// String reads a string written by String or UniqueString.
func (d *Decoder) String() string {
	switch v := d.uint(); {
	case v == 0:
		return ""
	case v == 1:
		d.nstr++
		return d.r.stringAt(d.nstr - 1)
	case v%2 == 0:
		return d.r.stringAt(d.nstr - 1 - int(v-2)/2)
	default:
		return d.r.stringAt(int(v-3) / 2)
	}
}

// Strings reads one string into each of dst.
func (d *Decoder) Strings(dst ...*string) {
	for _, p := range dst {
		*p = d.String()
	}
}

// List reads a field written by List.
func (d *Decoder) List() []string {
	n := d.uint()
	if n == 0 {
		return nil
	}
	out := make([]string, n-1)
	for i := range out {
		out[i] = d.String()
	}
	return out
}

// Ints reads n integers written by Int (at most 8: an array, so that
// reading allocates nothing for them).
func (d *Decoder) Ints(n int) (out [8]int64) {
	for i := range out[:n] {
		out[i] = d.int()
	}
	return out
}

// uint reads an unsigned integer written by Encoder.uint.
func (d *Decoder) uint() uint64 {
	u, k := binary.Uvarint(d.b)
	d.skip(k)
	return u
}

// int reads one integer written by Int.
func (d *Decoder) int() int64 {
	i, k := binary.Varint(d.b)
	d.skip(k)
	return i
}

// skip moves past a varint of k bytes (binary.Uvarint's and Varint's
// count: 0 or less for a truncated or overlong one).
func (d *Decoder) skip(k int) {
	if k <= 0 {
		panic("trace: corrupt record")
	}
	d.b = d.b[k:]
}
