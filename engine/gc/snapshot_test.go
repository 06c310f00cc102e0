package gc

import (
	"maps"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// savedNodes copies the nodes a checkpoint holds, dependents included.
func savedNodes(cp *Checkpoint) map[types.UID]node {
	out := make(map[types.UID]node, len(cp.nodes))
	for uid, n := range cp.nodes {
		v := *n
		v.dependents = maps.Clone(n.dependents)
		out[uid] = v
	}
	return out
}

// sameNode reports whether a and b hold the same fields, the same
// ownerReference and finalizer slices and the same dependents.
func sameNode(a, b node) bool {
	return a.ref == b.ref && a.virtual == b.virtual && a.beingDeleted == b.beingDeleted &&
		a.deletingDependents == b.deletingDependents && a.linked == b.linked && a.epoch == b.epoch &&
		sameSlice(a.owners, b.owners) && sameSlice(a.finalizers, b.finalizers) && maps.Equal(a.dependents, b.dependents)
}

// sameSlice reports whether a and b are the same slice of the same array.
func sameSlice[E any](a, b []E) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
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
		var want []map[types.UID]node
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
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"a": "b"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}}}
	created, err := e.srv.CreateReplicaSet("test", rs)
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
	var want []map[types.UID]node
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
	if n := want[1][created.GetUID()]; len(n.dependents) != 2 {
		t.Fatalf("the owner's node has dependents %v, want p1 and p2", n.dependents)
	}
}
