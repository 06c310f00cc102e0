package trace

import (
	"fmt"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// emitUpTo emits notes prefix<i> until the trace holds n records, stamping
// each with step i.
func emitUpTo(r *Recorder, prefix string, n int) {
	for i := r.Len(); i < n; i++ {
		r.SetStep(i)
		r.Emit("sim", Note{Message: fmt.Sprintf("%s%d", prefix, i)})
	}
}

// checkTrace fails unless the trace holds n records whose message is
// prefixOf(i)<i> and whose Seq is i+1.
func checkTrace(t *testing.T, what string, r *Recorder, n int, prefixOf func(i int) string) {
	t.Helper()
	if r.Len() != n {
		t.Fatalf("%s: %d records, want %d", what, r.Len(), n)
	}
	i := 0
	r.Each(0, func(rec Record) bool {
		want := fmt.Sprintf("%s%d", prefixOf(i), i)
		if got := rec.Data.(Note).Message; got != want || rec.Seq != uint64(i+1) {
			t.Fatalf("%s: record %d is %q seq %d, want %q seq %d", what, i, got, rec.Seq, want, i+1)
		}
		i++
		return true
	})
	if i != n {
		t.Fatalf("%s: Each visited %d records, want %d", what, i, n)
	}
}

// same names every record with prefix p.
func same(p string) func(int) string { return func(int) string { return p } }

// Checkpoints across chunk boundaries restore backwards and forwards: a
// replay after an earlier restore leaves later checkpoints intact, and a
// rewritten future after a boundary checkpoint leaves the records before
// it intact.
func TestCheckpointAcrossChunks(t *testing.T) {
	r := NewRecorder(clock.New(clock.Epoch), 1)
	marks := []int{0, 100, manyRecords, manyRecords + 5, 2*manyRecords + 100}
	cps := map[int]Checkpoint{}
	for _, m := range marks {
		emitUpTo(r, "a", m)
		cps[m] = r.Checkpoint()
	}
	end := marks[len(marks)-1]
	checkTrace(t, "run", r, end, same("a"))

	// Back to the middle of the second chunk, replay the same records.
	r.Restore(cps[manyRecords+5])
	if r.Step() != manyRecords+4 {
		t.Fatalf("step %d after restore, want %d", r.Step(), manyRecords+4)
	}
	checkTrace(t, "restored inside chunk 2", r, manyRecords+5, same("a"))
	emitUpTo(r, "a", end)
	checkTrace(t, "replayed", r, end, same("a"))

	// Back to the first chunk, then forward again without replaying: the
	// later chunks are still there.
	r.Restore(cps[100])
	checkTrace(t, "restored to 100", r, 100, same("a"))
	r.Restore(cps[end])
	checkTrace(t, "forward to the end", r, end, same("a"))

	// A different future after the checkpoint on the chunk boundary.
	r.Restore(cps[manyRecords])
	emitUpTo(r, "b", manyRecords+50)
	rewritten := func(i int) string {
		if i < manyRecords {
			return "a"
		}
		return "b"
	}
	checkTrace(t, "rewritten after the boundary", r, manyRecords+50, rewritten)
	if got := r.Slice(manyRecords-1, manyRecords+1); len(got) != 2 || got[0].Data.(Note).Message != fmt.Sprint("a", manyRecords-1) || got[1].Data.(Note).Message != fmt.Sprint("b", manyRecords) {
		t.Fatalf("Slice across the boundary: %+v", got)
	}
	// Checkpoints at or before the rewrite still restore what they saved.
	r.Restore(cps[100])
	checkTrace(t, "100 after the rewrite", r, 100, same("a"))
	emitUpTo(r, "c", 200)
	checkTrace(t, "rewritten after 100", r, 200, func(i int) string {
		if i < 100 {
			return "a"
		}
		return "c"
	})
}
