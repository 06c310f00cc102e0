package trace

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

func TestRecorderOrderAndText(t *testing.T) {
	c := clock.New(clock.Epoch)
	r := NewRecorder(c, 42)
	r.Emit("sim", Note{Message: "hello"})
	c.Advance(250 * time.Millisecond)
	r.SetStep(3)
	seq := r.Emit("kubelet", Note{Message: "pod web-1 Running"})
	if seq != 2 || r.Len() != 2 {
		t.Fatalf("seq=%d len=%d", seq, r.Len())
	}
	want := "# rolloutlab trace v1 seed=42\n+0.000s sim sim: hello\n+0.250s kubelet sim: pod web-1 Running\n"
	if got := r.Text(); got != want {
		t.Fatalf("text:\n%s\nwant:\n%s", got, want)
	}
	if got := r.Since(1); len(got) != 1 || got[0].Step != 3 {
		t.Fatalf("Since(1) = %+v", got)
	}
	if r.Since(2) != nil {
		t.Fatal("Since(last) should be empty")
	}
}

func TestRecordJSON(t *testing.T) {
	c := clock.New(clock.Epoch)
	r := NewRecorder(c, 1)
	r.Emit("sim", Note{Message: "x"})
	b, err := json.Marshal(r.Records()[0])
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"seq":1`, `"kind":"sim"`, `"type":"Note"`, `"data":{"message":"x"}`, `"text":"x"`} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON %s lacks %s", s, want)
		}
	}
}

func TestKindNames(t *testing.T) {
	for k := KindAPI; k <= KindTurn; k++ {
		back, ok := ParseKind(k.String())
		if !ok || back != k {
			t.Errorf("kind %d round-trips to %v %v", k, back, ok)
		}
	}
	if Kind(99).String() != "unknown" {
		t.Error("unknown kind")
	}
}

// manyRecords is enough records to fill several data chunks.
const manyRecords = 8192

func TestForgetReleasesWholeChunksOnly(t *testing.T) {
	c := clock.New(clock.Epoch)
	r := NewRecorder(c, 1)
	total := 2*manyRecords + 10
	for i := 0; i < total; i++ {
		r.Emit("test", Note{Message: "n"})
	}
	if len(r.data) < 3 {
		t.Fatalf("%d records fill %d data chunks, want at least 3", total, len(r.data))
	}
	r.Forget(manyRecords + 5)
	if r.data[0] != nil || r.data[len(r.data)-1] == nil {
		t.Fatal("Forget(manyRecords+5) must release the first data chunk and keep the last")
	}
	if got := r.At(manyRecords + 5); got.Seq != manyRecords+6 || got.Data.Text() != "n" {
		t.Fatalf("At(manyRecords+5) after Forget = %+v", got)
	}
	r.Forget(total)
	if r.data[len(r.data)-1] == nil || r.data[len(r.data)-2] != nil {
		t.Fatal("Forget(total) must release the full chunks and keep the last one")
	}
	if seq := r.Emit("test", Note{Message: "after"}); seq != uint64(total+1) || r.Len() != total+1 {
		t.Fatalf("Emit after Forget: seq %d, Len %d; want %d", seq, r.Len(), total+1)
	}
	if got := r.At(total); got.Seq != uint64(total+1) || got.Data.Text() != "after" {
		t.Fatalf("record %d after Forget: %+v", total+1, got)
	}
}
