package gc

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// savedNode is a node as a checkpoint held it, its dependents copied.
type savedNode struct {
	node
	deps map[types.UID]struct{}
}

// depSet copies a dependents map into a Go map.
func depSet(m *cow.Map[types.UID, struct{}]) map[types.UID]struct{} {
	return m.Contents().(map[types.UID]struct{})
}

// savedNodes copies the nodes a checkpoint holds, dependents included.
func savedNodes(cp *Checkpoint) map[types.UID]savedNode {
	out := make(map[types.UID]savedNode, cp.nodes.Len())
	cp.nodes.Range(func(uid types.UID, n *node) bool {
		out[uid] = savedNode{*n, depSet(n.dependents)}
		return true
	})
	return out
}

// sameNode reports whether a and b hold the same fields, the same
// ownerReference and finalizer slices and the same dependents.
func sameNode(a, b savedNode) bool {
	return a.ref == b.ref && a.virtual == b.virtual && a.beingDeleted == b.beingDeleted &&
		a.deletingDependents == b.deletingDependents && a.linked == b.linked && a.epoch == b.epoch &&
		sameSlice(a.owners, b.owners) && sameSlice(a.finalizers, b.finalizers) && maps.Equal(a.deps, b.deps)
}

// A node a checkpoint holds is never written afterwards: every scenario of
// testdata runs with a checkpoint taken after each command and each
// collector step, and each checkpoint's nodes must still be as saved at
// the end.
func TestCheckpointedNodesAreNeverWritten(t *testing.T) {
	total := 0
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		e := newEnv()
		var cps []*Checkpoint
		var want []map[types.UID]savedNode
		save := func() {
			cp := e.gc.Checkpoint()
			cps, want = append(cps, cp), append(want, savedNodes(cp))
		}
		e.afterStep = save
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			out := e.run(t, d)
			save()
			return out
		})
		for i, cp := range cps {
			got := savedNodes(cp)
			total += len(got)
			if len(got) != len(want[i]) {
				t.Fatalf("checkpoint %d: %d nodes, saved %d", i, len(got), len(want[i]))
			}
			for uid, n := range want[i] {
				if !sameNode(got[uid], n) {
					t.Errorf("checkpoint %d: node %s was written after it was saved", i, n.ref)
				}
			}
		}
	})
	if total == 0 {
		t.Fatal("no nodes saved")
	}
}

// An owner that gains and loses dependents after a checkpoint leaves the
// checkpoint's node (and its dependents) as saved.
func TestCheckpointedOwnerKeepsItsDependents(t *testing.T) {
	e := newEnv()
	created, err := e.srv.CreateReplicaSet("test", testReplicaSet("rs"))
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	addPod := func(name string) {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"a": "b"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: created.GetUID(), Controller: &yes}}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
		if _, err := e.srv.CreatePod("test", pod); err != nil {
			t.Fatal(err)
		}
	}
	var cps []*Checkpoint
	var want []map[types.UID]savedNode
	save := func() {
		e.gc.Observe()
		cp := e.gc.Checkpoint()
		cps, want = append(cps, cp), append(want, savedNodes(cp))
	}
	addPod("p1")
	save()
	addPod("p2")
	save()
	zero := int64(0)
	if err := e.srv.Delete("test", apiserver.Pods, "default", "p1", apiserver.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	save()
	for i, cp := range cps {
		got := savedNodes(cp)
		for uid, n := range want[i] {
			if !sameNode(got[uid], n) {
				t.Errorf("checkpoint %d: node %s was written after it was saved", i, n.ref)
			}
		}
	}
	if n := want[1][created.GetUID()]; len(n.deps) != 2 {
		t.Fatalf("the owner's node has dependents %v, want p1 and p2", n.deps)
	}
}

// Skipping the writes that keep what the graph holds (Observe) changes
// nothing. Every scenario of testdata runs in two more clusters that, after
// each command, write the status of every pod and replica set (writes that
// keep owner references, finalizers and deletion state, which the
// scenarios themselves do not make) and let their collector observe them:
// one collector skips such writes, the other passes every write to upsert
// (unlinkedByRemoval forced on). Both must print the same and hold the same
// graph after every command, whatever the scenario's graph went through
// (virtual nodes, foreground and orphan deletion). A third cluster,
// untouched, checks the scenario's own output. The writes that must not be
// skipped (an owner's UID named again after its node was removed, a
// reference to a kind not stored, several references to one UID) have
// tests of their own below.
func TestKeptWritesSkipNothing(t *testing.T) {
	kept := 0
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		ref, fast, full := newEnv(), newEnv(), newEnv()
		full.gc.unlinkedByRemoval = true
		touch := func(e *env, n int) {
			for _, p := range e.srv.ListPods("", nil) {
				cp := *p
				cp.Status.Message = fmt.Sprintf("touched %d", n)
				if _, err := e.srv.UpdatePodStatusOwned("test", &cp); err != nil {
					t.Fatal(err)
				}
			}
			for _, rs := range e.srv.ListReplicaSets("", nil) {
				cp := *rs
				cp.Status.ObservedGeneration = int64(n)
				if _, err := e.srv.UpdateReplicaSetStatus("test", &cp); err != nil {
					t.Fatal(err)
				}
			}
			for _, ev := range e.srv.WatchSince(e.gc.cursor) {
				if ev.Type == apiserver.Modified && graphInputsKept(ev.Prev, ev.Object) && !e.gc.unlinkedByRemoval {
					kept++
				}
			}
			e.gc.Observe()
		}
		cmds := 0
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			out := fast.run(t, d)
			if got := full.run(t, d); got != out {
				t.Fatalf("%s: output\n%s\nwhen every write is applied:\n%s", d.Pos, out, got)
			}
			cmds++
			touch(fast, cmds)
			touch(full, cmds)
			sameGraphs(t, d.Pos, fast, full)
			return ref.run(t, d)
		})
	})
	if kept == 0 {
		t.Fatal("no write kept the graph's inputs: the comparison shows nothing")
	}
	t.Logf("%d writes skipped", kept)
}

// The one case where a write that keeps the graph's inputs still changes
// the graph: a dependent whose owner's node was removed is linked again,
// by its next write, to a virtual node made since for the same UID. The
// collector stops skipping such writes once an owner's removal has
// unlinked a dependent (unlinkedByRemoval).
func TestKeptWriteRelinksToVirtualOwner(t *testing.T) {
	e := newEnv()
	owner, err := e.srv.CreateReplicaSet("test", testReplicaSet("x"))
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	pod := func(name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "x", UID: owner.GetUID(), Controller: &yes}}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
	}
	p, err := e.srv.CreatePod("test", pod("p"))
	if err != nil {
		t.Fatal(err)
	}
	e.gc.Observe()
	zero := int64(0)
	if err := e.srv.Delete("test", apiserver.ReplicaSets, "default", "x", apiserver.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	e.gc.Observe() // x's node is removed: p is unlinked and queued
	if !e.gc.unlinkedByRemoval {
		t.Fatal("removing x's node did not mark the graph")
	}
	if _, err := e.srv.CreatePod("test", pod("q")); err != nil {
		t.Fatal(err)
	}
	e.gc.Observe() // q names x's UID: a virtual node for it
	cp := *p
	cp.Status.Message = "touched"
	if _, err := e.srv.UpdatePodStatusOwned("test", &cp); err != nil {
		t.Fatal(err)
	}
	e.gc.Observe()
	x := e.gc.nodes.At(owner.GetUID())
	if x == nil || !x.virtual {
		t.Fatalf("no virtual node for x: %+v", x)
	}
	if !x.dependents.Has(p.UID) {
		t.Fatalf("p's status write did not link it to x's virtual node: dependents %v", depSet(x.dependents))
	}
}

// sameGraphs fails unless the two collectors hold the same graph (node by
// node, their slices compared by value) and the same queue.
func sameGraphs(t *testing.T, when string, fast, full *env) {
	t.Helper()
	a, b := fast.gc.nodes, full.gc.nodes
	if a.Len() != b.Len() {
		t.Fatalf("%s: %d nodes, %d when every write is applied", when, a.Len(), b.Len())
	}
	b.Range(func(uid types.UID, n *node) bool {
		m := a.At(uid)
		if m == nil {
			t.Fatalf("%s: no node %s", when, n.ref)
		}
		x, y := *m, *n
		if x.ref != y.ref || x.virtual != y.virtual || x.beingDeleted != y.beingDeleted || x.deletingDependents != y.deletingDependents ||
			x.linked != y.linked || !reflect.DeepEqual(x.owners, y.owners) || !slices.Equal(x.finalizers, y.finalizers) || !maps.Equal(depSet(x.dependents), depSet(y.dependents)) {
			t.Fatalf("%s: node %s is %+v, %+v when every write is applied", when, n.ref, x, y)
		}
		return true
	})
	if p, q := fast.gc.Pending(), full.gc.Pending(); !slices.Equal(p, q) {
		t.Fatalf("%s: queue %q, %q when every write is applied", when, p, q)
	}
}

// Writes that keep an object's metadata but whose references make upsert
// do something all the same are not skipped: each case runs in a cluster
// whose collector skips what it may and in one whose collector applies
// every write, and both must hold the same graph and queue after the
// write.
func TestKeptWritesWithUnusualReferences(t *testing.T) {
	ref := func(kind string, uid types.UID, block bool) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: "v1", Kind: kind, Name: "x", UID: uid, BlockOwnerDeletion: &block}
	}
	cases := []struct {
		name string
		// pods returns the owner references of the pods to create, in
		// order, given the UID of a stored replica set x; each pod is
		// observed, then the first one's status is written.
		pods func(x types.UID) [][]metav1.OwnerReference
	}{
		// A reference to a kind the cluster does not store makes no node;
		// the virtual node a later reference to a stored kind makes for
		// the same UID takes the first pod in at its next write.
		{"kind not stored, then a virtual node for its UID", func(types.UID) [][]metav1.OwnerReference {
			ghost := types.UID("00000000-0000-4000-8000-0000000000aa")
			return [][]metav1.OwnerReference{{ref("Job", ghost, false)}, {ref("ReplicaSet", ghost, false)}}
		}},
		// Two references to x, the first blocking and the last not: every
		// write compares them and queues x.
		{"one UID named twice", func(x types.UID) [][]metav1.OwnerReference {
			return [][]metav1.OwnerReference{{ref("ReplicaSet", x, true), ref("ReplicaSet", x, false)}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fast, full := newEnv(), newEnv()
			full.gc.unlinkedByRemoval = true
			for _, e := range []*env{fast, full} {
				x, err := e.srv.CreateReplicaSet("test", testReplicaSet("x"))
				if err != nil {
					t.Fatal(err)
				}
				var first *corev1.Pod
				for i, refs := range c.pods(x.UID) {
					pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "default", OwnerReferences: refs},
						Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
					created, err := e.srv.CreatePod("test", pod)
					if err != nil {
						t.Fatal(err)
					}
					if first == nil {
						first = created
					}
					e.gc.Observe()
				}
				cp := *first
				cp.Status.Message = "touched"
				if _, err := e.srv.UpdatePodStatusOwned("test", &cp); err != nil {
					t.Fatal(err)
				}
				e.gc.Observe()
			}
			if fast.gc.unlinkedByRemoval {
				t.Fatal("no owner was removed")
			}
			sameGraphs(t, c.name, fast, full)
		})
	}
}

// testReplicaSet is a replica set named name in the default namespace,
// selecting a=b.
func testReplicaSet(name string) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"a": "b"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}}}
}
