package trace

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// sample is a payload written through a codec, with every kind of field.
type sample struct {
	Name    string        `json:"name"`
	Note    string        `json:"note,omitempty"`
	Tags    []string      `json:"tags"`
	Count   uint64        `json:"count"`
	Delta   int64         `json:"delta"`
	Wait    time.Duration `json:"waitNs"`
	Flagged bool          `json:"flagged"`
}

func (sample) Kind() Kind     { return KindSim }
func (s sample) Text() string { return fmt.Sprintf("%+v", struct{ sample }{s}) }
func (s *sample) emit(r *Recorder, source string) uint64 {
	e := r.Begin(source, sampleCodec)
	e.String(s.Name)
	e.UniqueString(s.Note)
	e.List(s.Tags)
	flagged := int64(0)
	if s.Flagged {
		flagged = 1
	}
	e.Int(int64(s.Count), s.Delta, int64(s.Wait), flagged)
	return e.End()
}

var sampleCodec = NewCodec(KindSim, func(d *Decoder) Payload {
	var s sample
	d.Strings(&s.Name, &s.Note)
	s.Tags = d.List()
	n := d.Ints(4)
	s.Count, s.Delta, s.Wait, s.Flagged = uint64(n[0]), n[1], time.Duration(n[2]), n[3] != 0
	return s
})

// samplePayload is the i-th payload of the runs below: names repeat with
// different periods (some stay in the intern cache, some are evicted),
// some records add more than seven strings, and boxed notes are mixed in.
func samplePayload(i int, branch string) Payload {
	if i%11 == 0 {
		return Note{Message: fmt.Sprint(branch, "note", i)}
	}
	s := sample{Name: fmt.Sprint("obj-", i%7), Count: uint64(i) * 1000003, Delta: int64(500 - i), Wait: time.Duration(i) * time.Millisecond,
		Flagged: i%3 == 0}
	if i%5 == 0 {
		s.Note = fmt.Sprint(branch, "message ", i)
	}
	switch i % 4 {
	case 1:
		s.Tags = []string{}
	case 0: // records at marks (every 64th) add more than seven strings
		for k := 0; k < 9; k++ {
			s.Tags = append(s.Tags, fmt.Sprint(branch, "tag-", i, "-", k))
		}
	case 2:
		s.Tags = []string{"a", fmt.Sprint("pod-", i%5003), "a", ""}
	}
	return s
}

// emitSamples emits samplePayload(i) for the trace's length i until it
// holds n records, advancing the clock and the step now and then.
func emitSamples(r *Recorder, c *clock.Clock, branch string, n int) {
	for i := r.Len(); i < n; i++ {
		if i%3 == 0 {
			c.Advance(time.Duration(i%17) * time.Millisecond)
			r.SetStep(r.Step() + 1)
		}
		switch p := samplePayload(i, branch).(type) {
		case sample:
			p.emit(r, fmt.Sprint("src-", i%3))
		default:
			r.Emit("boxed", p)
		}
	}
}

func TestCodecRoundTrip(t *testing.T) {
	c := clock.New(clock.Epoch)
	r := NewRecorder(c, 1)
	const n = 3 * manyRecords
	emitSamples(r, c, "a", n)
	check := func(i int, rec Record) {
		t.Helper()
		if want := samplePayload(i, "a"); !reflect.DeepEqual(rec.Data, want) {
			t.Fatalf("record %d: %#v, want %#v", i, rec.Data, want)
		}
		if want := fmt.Sprint("src-", i%3); rec.Source != want && rec.Source != "boxed" {
			t.Fatalf("record %d from %q, want %q", i, rec.Source, want)
		}
		if rec.Seq != uint64(i+1) {
			t.Fatalf("record %d has seq %d", i, rec.Seq)
		}
	}
	i := 0
	var steps []int
	r.Each(0, func(rec Record) bool {
		check(i, rec)
		steps = append(steps, rec.Step)
		i++
		return true
	})
	for _, k := range []int{0, 1, 63, 64, 65, 1000, n - 1} {
		rec := r.At(k)
		check(k, rec)
		if rec.Step != steps[k] {
			t.Fatalf("At(%d).Step = %d, Each saw %d", k, rec.Step, steps[k])
		}
	}
	b, err := json.Marshal(r.At(2))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"data":{"name":"obj-2","tags":["a","pod-2","a",""],"count":2000006,"delta":498,"waitNs":2000000,"flagged":false}`; !json.Valid(b) || !strings.Contains(string(b), want) {
		t.Fatalf("JSON %s lacks %s", b, want)
	}
}

// A trace restored to a checkpoint and replayed holds exactly what a trace
// recorded straight through holds, storage included (the session's
// rewind property test compares simulations field by field), whether it
// was rewound or wound forward past a different future.
func TestRestoredTraceIsCanonical(t *testing.T) {
	const n = 2*manyRecords + 77
	straight := NewRecorder(clock.New(clock.Epoch), 1)
	emitSamples(straight, straight.clock, "a", n)

	c := clock.New(clock.Epoch)
	r := NewRecorder(c, 1)
	emitSamples(r, c, "a", 5000)
	cp5000, clock5000 := r.Checkpoint(), c.Checkpoint()
	emitSamples(r, c, "b", n) // a different future
	r.Restore(cp5000)
	c.Restore(clock5000)
	emitSamples(r, c, "a", 9000)
	cp9000, clock9000 := r.Checkpoint(), c.Checkpoint()
	r.Restore(cp5000)
	c.Restore(clock5000)
	emitSamples(r, c, "c", 12000) // another one, then forward to 9000
	r.Restore(cp9000)
	c.Restore(clock9000)
	emitSamples(r, c, "a", n)

	for _, f := range []struct {
		name string
		a, b any
	}{
		{"data", straight.data, r.data}, {"marks", straight.marks, r.marks}, {"strs", straight.strs, r.strs},
		{"boxed", straight.boxed, r.boxed}, {"position", straight.position, r.position},
	} {
		if !reflect.DeepEqual(f.a, f.b) {
			t.Errorf("after restores and replays, %s differs from a trace recorded straight through", f.name)
		}
	}
}

// Forget releases the string table's chunks that only released records
// name, and the records it keeps still read back whole.
func TestForgetReleasesStrings(t *testing.T) {
	c := clock.New(clock.Epoch)
	r := NewRecorder(c, 1)
	const n = 6 * manyRecords
	emitSamples(r, c, "a", n)
	if len(r.strs) < 3 {
		t.Fatalf("%d records fill %d string chunks, want at least 3", n, len(r.strs))
	}
	r.Forget(n)
	if r.strs[0] != nil || r.strs[len(r.strs)-1] == nil {
		t.Fatal("Forget(Len()) must release the first string chunk and keep the last")
	}
	from := (n - 1) / markEvery * markEvery // kept: in the chunk of the last mark
	r.Each(from, func(rec Record) bool {
		if want := samplePayload(int(rec.Seq-1), "a"); !reflect.DeepEqual(rec.Data, want) {
			t.Fatalf("record %d after Forget: %#v, want %#v", rec.Seq-1, rec.Data, want)
		}
		return true
	})
	emitSamples(r, c, "a", n+500)
	r.Each(n, func(rec Record) bool {
		if want := samplePayload(int(rec.Seq-1), "a"); !reflect.DeepEqual(rec.Data, want) {
			t.Fatalf("record %d emitted after Forget: %#v, want %#v", rec.Seq-1, rec.Data, want)
		}
		return true
	})
}

// A Reader reads every record once, in order, across appends and Forget
// of what it has read (the command line's streamed timeline).
func TestReaderAcrossAppendsAndForget(t *testing.T) {
	c := clock.New(clock.Epoch)
	r := NewRecorder(c, 1)
	rd := r.NewReader(0)
	for n := 1; n <= 4*manyRecords; n += n%97 + 1 {
		emitSamples(r, c, "a", n)
		stop := n - n%5 // leave a few for the next round
		rd.Each(func(rec Record) bool {
			i := int(rec.Seq - 1)
			if i != rd.Next() || !reflect.DeepEqual(rec.Data, samplePayload(i, "a")) {
				t.Fatalf("reader at %d read record %d: %#v", rd.Next(), i, rec.Data)
			}
			return i < stop
		})
		r.Forget(rd.Next())
	}
}
