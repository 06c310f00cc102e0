package apiserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// TestCheckpointRestoresLogCountsAndOrder: a checkpoint taken with keys
// created since the last list and part of the watch log forgotten gives
// back the watch log (positions included), the per-node pod counts and the
// list order, after the live server forgot more of its log, created,
// bound and deleted pods, and again after a different future; and so does
// a new server that restores it (a fork), which then lists the pods it
// creates in order too.
func TestCheckpointRestoresLogCountsAndOrder(t *testing.T) {
	e := newTestEnv()
	s := e.srv
	must := mustWrite(t)
	dumpOf := func(s *Server) string {
		var listed []string
		for _, p := range s.ListPods("", nil) {
			listed = append(listed, p.Name+"@"+p.Spec.NodeName)
		}
		return fmt.Sprintf("end=%d log=%v pods=%v n1=%d n2=%d count=%d rv=%d",
			s.WatchEnd(), names(s.WatchSince(s.WatchEnd()-len(s.WatchLog()))), listed,
			s.PodsOnNode("n1"), s.PodsOnNode("n2"), s.PodCount(), s.ResourceVersion())
	}
	dump := func() string { return dumpOf(s) }
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

	// A fork: a new server, whose tables start on a slot table of their
	// own, restores the checkpoint and goes on.
	f := newTestEnv().srv
	if f.KeySlots() == s.KeySlots() {
		t.Fatal("two servers share a slot table before a restore")
	}
	f.Restore(cp)
	if got := dumpOf(f); got != want || f.KeySlots() != s.KeySlots() {
		t.Fatalf("restored into a new server:\n got %s\nwant %s (on the checkpoint's slot table: %v)", got, want, f.KeySlots() == s.KeySlots())
	}
	for _, name := range []string{"ba", "0", "zz"} {
		must(f.CreatePod("kubectl", testPod("default", name, nil)))
	}
	if err := f.DeletePod("kubectl", "default", "d", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, p := range f.ListPods("", nil) {
		listed = append(listed, p.Name)
	}
	if want := []string{"0", "a", "b", "ba", "c", "e", "zz"}; !slices.Equal(listed, want) {
		t.Fatalf("the fork lists %v, want %v", listed, want)
	}
}

// The owner index's sets a checkpoint holds are never written afterwards:
// dependents added and removed after the checkpoint, then again after it
// is restored, leave what it saved as it was, and a restore brings it back.
func TestCheckpointedOwnerIndexIsNeverWritten(t *testing.T) {
	e := newTestEnv()
	s := e.srv
	owned := func(name, owner string) {
		t.Helper()
		p := testPod("default", name, nil)
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner, UID: types.UID(owner)}}
		if _, err := s.CreatePod("kubectl", p); err != nil {
			t.Fatal(err)
		}
	}
	del := func(name string) {
		t.Helper()
		zero := int64(0)
		if err := s.DeletePod("kubectl", "default", name, DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
			t.Fatal(err)
		}
	}
	saved := func(cp *Checkpoint) string {
		var out []string
		for u, set := range cp.owners {
			set.refs.Range(func(_ types.UID, r *ObjectRef) bool {
				out = append(out, string(u)+">"+r.Name)
				return true
			})
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	owned("a", "o1")
	owned("b", "o1")
	owned("c", "o2")
	cp := s.Checkpoint()
	want := saved(cp)
	owned("d", "o1")
	del("c")
	del("a")
	owned("e", "o3")
	cp2 := s.Checkpoint()
	want2 := saved(cp2)
	owned("f", "o3")
	del("b")
	s.Restore(cp)
	owned("g", "o2")
	del("b")
	if got := saved(cp); got != want {
		t.Fatalf("checkpoint written after it was taken:\n got %s\nwant %s", got, want)
	}
	if got := saved(cp2); got != want2 {
		t.Fatalf("second checkpoint written after it was taken:\n got %s\nwant %s", got, want2)
	}
	s.Restore(cp)
	if d := s.Dependents("o1"); len(d) != 2 || d[0].Name != "a" || d[1].Name != "b" {
		t.Fatalf("restored dependents of o1: %v", d)
	}
}

// changedByLookup counts what ObjectsChangedSince counts by looking every
// key up: the objects cp holds that prev does not hold as they are.
func changedByLookup(cp, prev *Checkpoint) int {
	n := 0
	for r, t := range cp.tables {
		t.objs.Range(func(k string, obj Object) bool {
			if old, ok := prev.tables[r].objs.Get(k); !ok || old != obj {
				n++
			}
			return true
		})
	}
	return n
}

// ObjectsChangedSince, read from the chunks the checkpoints do not share,
// counts the objects a lookup of every key finds changed or new, through
// creates, updates, no-op writes, deletions and a restore (after which
// two checkpoints hold different futures of the same past).
func TestObjectsChangedSinceMatchesTheTables(t *testing.T) {
	e := newTestEnv()
	s := e.srv
	must := mustWrite(t)
	var cps []*Checkpoint
	for _, name := range []string{"a", "b", "c"} {
		must(s.CreatePod("kubectl", testPod("default", name, nil)))
	}
	cps = append(cps, s.Checkpoint())
	must(s.BindPod("scheduler", "default", "a", "n1"))
	must(s.CreatePod("kubectl", testPod("default", "d", nil)))
	cps = append(cps, s.Checkpoint())
	if err := s.DeletePod("kubectl", "default", "b", DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	p, _ := s.GetPod("default", "c")
	must(s.UpdatePod("kubectl", p.DeepCopy())) // a no-op write
	cps = append(cps, s.Checkpoint())
	s.Restore(cps[1])
	must(s.CreatePod("kubectl", testPod("default", "e", nil)))
	cps = append(cps, s.Checkpoint())
	for j := range cps {
		for i := 0; i < j; i++ {
			if got, want := cps[j].ObjectsChangedSince(cps[i]), changedByLookup(cps[j], cps[i]); got != want {
				t.Errorf("checkpoint %d since %d: %d changed, the tables show %d", j, i, got, want)
			}
		}
	}
	if cps[1].ObjectsChangedSince(cps[0]) == 0 {
		t.Fatal("nothing changed: the test checks nothing")
	}
}

// mustWrite returns a check for a server call's (object, error) results
// that fails the test on an error.
func mustWrite(t *testing.T) func(any, error) {
	return func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestFindPodInSlot: a caller that keeps a pod key's slot in a map on the
// server's table of pods (the kubelet) reads the pod by slot while the
// server is on that table, a fork's included once it restored the
// checkpoint, and by key when it is not.
func TestFindPodInSlot(t *testing.T) {
	must := mustWrite(t)
	s := newTestEnv().srv
	for _, name := range []string{"a", "b"} {
		must(s.CreatePod("kubectl", testPod("default", name, nil)))
	}
	mine := cow.NewMapOn[string, bool](s.KeySlots())
	mine.Set("default/a", true)
	mine.Set("default/b", true)
	slotA, _ := mine.SlotOf("default/a")
	slotB, _ := mine.SlotOf("default/b")
	name := func(p *corev1.Pod, ok bool) string {
		if !ok {
			return "none"
		}
		return p.Name
	}
	// On the server's table the slot decides (the key is not read).
	if got := name(s.FindPodInSlot(mine.SlotTable(), slotB, "default/a")); got != "b" {
		t.Fatalf("slot of b on the server's table: %s", got)
	}
	// On another table the key decides.
	other := cow.NewMapOn[string, bool](nil)
	other.Set("default/x", true)
	other.Set("default/y", true)
	if got := name(s.FindPodInSlot(other.SlotTable(), slotB, "default/a")); got != "a" {
		t.Fatalf("key a with b's slot on another table: %s", got)
	}
	cp := s.Checkpoint()
	zero := int64(0)
	if err := s.DeletePod("kubectl", "default", "a", DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	if got := name(s.FindPodInSlot(mine.SlotTable(), slotA, "default/a")); got != "none" {
		t.Fatalf("deleted a found by its slot: %s", got)
	}
	// A new server, on a table of its own whose slot 0 holds another pod.
	f := newTestEnv().srv
	must(f.CreatePod("kubectl", testPod("default", "z", nil)))
	if got := name(f.FindPodInSlot(mine.SlotTable(), slotA, "default/a")); got != "none" {
		t.Fatalf("a new server, on a table of its own, finds %s", got)
	}
	f.Restore(cp)
	if got := name(f.FindPodInSlot(mine.SlotTable(), slotA, "default/b")); got != "a" {
		t.Fatalf("the fork, on the checkpoint's table, finds %s by a's slot", got)
	}
}
