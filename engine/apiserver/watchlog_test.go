package apiserver

import (
	"fmt"
	"testing"
)

// TestForgetWatchLog checks the retention contract: positions stay absolute
// after entries are dropped, forgotten entries are gone, a slice a
// checkpoint shares keeps its contents, and a cursor behind the retained
// part panics.
func TestForgetWatchLog(t *testing.T) {
	e := newTestEnv()
	for _, name := range []string{"a", "b", "c"} {
		if _, err := e.srv.CreatePod("kubectl", testPod("default", name, nil)); err != nil {
			t.Fatal(err)
		}
	}
	if e.srv.WatchEnd() != 3 || len(e.srv.WatchSince(1)) != 2 || e.srv.WatchSince(3) != nil {
		t.Fatalf("end %d, since(1) %d entries", e.srv.WatchEnd(), len(e.srv.WatchSince(1)))
	}
	e.srv.Checkpoint() // shares the log's array: the forget must not reuse it
	held := e.srv.WatchSince(0)
	e.srv.ForgetWatchLog(2)
	if _, err := e.srv.CreatePod("kubectl", testPod("default", "d", nil)); err != nil {
		t.Fatal(err)
	}
	if got := e.srv.WatchSince(2); len(got) != 2 || got[0].Object.GetName() != "c" || got[1].Object.GetName() != "d" {
		t.Fatalf("since(2) after forget: %v", names(got))
	}
	if e.srv.WatchEnd() != 4 || len(e.srv.WatchLog()) != 2 {
		t.Fatalf("end %d, retained %d", e.srv.WatchEnd(), len(e.srv.WatchLog()))
	}
	if len(held) != 3 || held[2].Object.GetName() != "c" {
		t.Fatalf("earlier slice changed: %v", names(held))
	}
	e.srv.ForgetWatchLog(100) // past the end: everything read
	if e.srv.WatchEnd() != 4 || e.srv.WatchSince(4) != nil {
		t.Fatalf("end %d after forgetting all", e.srv.WatchEnd())
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a cursor behind the retained log did not panic")
		}
	}()
	e.srv.WatchSince(3)
}

func names(evs []WatchEvent) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Object.GetName())
	}
	return out
}

// TestForgetWatchLogReusesItsArray: with no checkpoint since the last
// forget, forgetting in batches moves the retained entries to the front of
// the same array, clears the slots after them (so the forgotten objects
// can be collected) and allocates nothing.
func TestForgetWatchLogReusesItsArray(t *testing.T) {
	e := newTestEnv()
	for _, name := range []string{"a", "b", "c"} {
		if _, err := e.srv.CreatePod("kubectl", testPod("default", name, nil)); err != nil {
			t.Fatal(err)
		}
	}
	e.srv.ForgetWatchLog(1)
	before := e.srv.WatchLog()
	full := before[:cap(before)]
	e.srv.ForgetWatchLog(2)
	after := e.srv.WatchLog()
	if len(after) != 1 || after[0].Object.GetName() != "c" || &after[:1][0] != &full[0] {
		t.Fatalf("retained %v in a new array", names(after))
	}
	if full[1].Object != nil {
		t.Fatalf("the slot after the retained entries still holds %s", full[1].Object.GetName())
	}
	// Each forget below drops one entry (AllocsPerRun calls it 11 times:
	// one warm-up, ten measured), so every call moves entries.
	for i := 0; i < 12; i++ {
		if _, err := e.srv.CreatePod("kubectl", testPod("default", fmt.Sprintf("more-%d", i), nil)); err != nil {
			t.Fatal(err)
		}
	}
	held := len(e.srv.WatchLog())
	forgetOne := func() { e.srv.ForgetWatchLog(e.srv.WatchEnd() - len(e.srv.WatchLog()) + 1) }
	if n := testing.AllocsPerRun(10, forgetOne); n != 0 {
		t.Fatalf("forget allocated %v times", n)
	}
	if got := len(e.srv.WatchLog()); got != held-11 {
		t.Fatalf("the log holds %d entries after 11 forgets of one, want %d", got, held-11)
	}
}
