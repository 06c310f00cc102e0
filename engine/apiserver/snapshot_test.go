package apiserver

import (
	"fmt"
	"testing"
)

// TestCheckpointRestoresLogCountsAndOrder: a checkpoint taken with keys
// created since the last list and part of the watch log forgotten gives
// back the watch log (positions included), the per-node pod counts and the
// list order, after the live server forgot more of its log, created,
// bound and deleted pods, and again after a different future.
func TestCheckpointRestoresLogCountsAndOrder(t *testing.T) {
	e := newTestEnv()
	s := e.srv
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	dump := func() string {
		var listed []string
		for _, p := range s.ListPods("", nil) {
			listed = append(listed, p.Name+"@"+p.Spec.NodeName)
		}
		return fmt.Sprintf("end=%d log=%v pods=%v n1=%d n2=%d count=%d rv=%d",
			s.WatchEnd(), names(s.WatchSince(s.WatchEnd()-len(s.WatchLog()))), listed,
			s.PodsOnNode("n1"), s.PodsOnNode("n2"), s.PodCount(), s.ResourceVersion())
	}
	for _, name := range []string{"c", "a", "e"} {
		must(s.CreatePod("kubectl", testPod("default", name, nil)))
	}
	must(s.BindPod("scheduler", "default", "a", "n1"))
	s.ListPods("", nil) // sorts the keys so far
	s.ForgetWatchLog(2)
	for _, name := range []string{"d", "b"} {
		must(s.CreatePod("kubectl", testPod("default", name, nil)))
	}
	must(s.BindPod("scheduler", "default", "b", "n2"))
	cp := s.Checkpoint()
	want := dump()

	s.ForgetWatchLog(s.WatchEnd())
	must(s.CreatePod("kubectl", testPod("default", "aa", nil)))
	must(s.BindPod("scheduler", "default", "aa", "n1"))
	if err := s.DeletePod("kubectl", "default", "c", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if dump() == want {
		t.Fatal("the changes changed nothing: the test checks nothing")
	}
	s.Restore(cp)
	if got := dump(); got != want {
		t.Fatalf("restored:\n got %s\nwant %s", got, want)
	}

	// A different future from the checkpoint, then the checkpoint again.
	must(s.CreatePod("kubectl", testPod("default", "ab", nil)))
	if err := s.DeletePod("kubectl", "default", "e", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := dump(); got == want || s.WatchSince(s.WatchEnd() - 2)[0].Object.GetName() != "ab" {
		t.Fatalf("after the restore the server did not continue: %s", got)
	}
	s.Restore(cp)
	if got := dump(); got != want {
		t.Fatalf("restored twice:\n got %s\nwant %s", got, want)
	}
}
