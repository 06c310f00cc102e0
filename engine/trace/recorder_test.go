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
