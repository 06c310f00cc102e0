package replicaset

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Scaling down deletes the worst-ranked pods first: unscheduled before
// scheduled, then not ready before ready. Deletions are expected by pod key
// and observed once, whether via the deletionTimestamp or the delete.
func TestScaleDownChoosesVictimsByRank(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 3, 0)
	e.settle()
	names := e.livePods()
	if len(names) != 3 {
		t.Fatalf("pods %v", names)
	}
	ready, notReady, unscheduled := names[0], names[1], names[2]
	e.run(ready, "node-1", true)
	e.clock.Advance(time.Second)
	e.run(notReady, "node-1", false)
	e.settle()

	e.scaleRS("web", 1)
	e.deliver()
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	expectLines(t, "scale-down records", got[3:8], []string{
		"manage default/web: active 3, desired 1, diff 2 -> delete 2",
		// A ReplicaSet without a controller has no related pods (ranks 0).
		"default/web: ReplicaSet has no controller: default/web",
		"default/web delete 2 of 3 ranked: " + unscheduled + " [unscheduled] " + notReady + " [not-ready] | keep " + ready,
		"Normal SuccessfulDelete ReplicaSet default/web: Deleted pod: " + unscheduled,
		"Normal SuccessfulDelete ReplicaSet default/web: Deleted pod: " + notReady,
	})
	check := e.rc.Expectations().Check("default/web")
	if check.Del != 2 || strings.Join(check.PendingKeys, ",") != "default/"+notReady+",default/"+unscheduled {
		t.Errorf("expectations after delete: %s", check.Text())
	}
	// The unscheduled pod is gone at once; the scheduled one terminates
	// gracefully (deletionTimestamp) until the kubelet removes it.
	if live := e.livePods(); strings.Join(live, ",") != strings.Join(sortedOf(ready, notReady), ",") {
		t.Errorf("live pods %v", live)
	}
	e.settle()
	if c := e.rc.Expectations().Check("default/web"); !c.Satisfied || c.Del != 0 || len(c.PendingKeys) != 0 {
		t.Errorf("expectations after delivery: %s", c.Text())
	}
	// The kubelet's final delete (grace 0) is observed again but not
	// counted twice.
	if err := e.srv.DeletePod("kubelet", "default", notReady, zeroGrace()); err != nil {
		t.Fatal(err)
	}
	e.settle()
	if _, del, _ := e.rc.Expectations().Get("default/web"); del != 0 {
		t.Errorf("del=%d after the final delete, want 0", del)
	}
	st := e.liveRS("web").Status
	if st.Replicas != 1 || st.TerminatingReplicas == nil || *st.TerminatingReplicas != 0 {
		t.Errorf("status %+v", st)
	}
}

func sortedOf(a, b string) []string {
	if a < b {
		return []string{a, b}
	}
	return []string{b, a}
}

// Rank counts the active pods of every ReplicaSet with the same controller
// on the same node: the pod sharing node-1 with the old ReplicaSet's pods is
// deleted before the one alone on node-2.
func TestScaleDownRanksByRelatedPodsOnSameNode(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	owner := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "d-uid", Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	oldRS := e.createVersionedRS("web-old", 2, "1", owner)
	e.createVersionedRS("web-new", 2, "2", owner)
	e.settle()
	var oldPods, newPods []string
	for _, p := range e.srv.ListPods("default", nil) {
		if p.OwnerReferences[0].UID == oldRS.UID {
			oldPods = append(oldPods, p.Name)
		} else {
			newPods = append(newPods, p.Name)
		}
	}
	for _, n := range oldPods {
		e.run(n, "node-1", true)
	}
	e.run(newPods[0], "node-2", true)
	e.run(newPods[1], "node-1", true)
	e.settle()

	e.scaleRS("web-new", 1)
	e.deliver()
	e.resetMark()
	for e.rc.Queue().Len() > 0 {
		e.sync()
	}
	got := e.since(decisions)
	want := "default/web-new delete 1 of 2 ranked: " + newPods[1] + " [colocation] | keep " + newPods[0]
	if countPrefix(got, want) != 1 {
		t.Errorf("no %q in\n%s", want, strings.Join(got, "\n"))
	}
}

func ptr[T any](v T) *T { return &v }

func (e *env) createVersionedRS(name string, replicas int32, version string, owner metav1.OwnerReference) *appsv1.ReplicaSet {
	e.t.Helper()
	lbls := map[string]string{"env": "prod", "v": version}
	rs, err := e.srv.CreateReplicaSet("kubectl", &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: lbls, OwnerReferences: []metav1.OwnerReference{owner}},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: lbls},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: lbls},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
		},
	})
	if err != nil {
		e.t.Fatalf("create rs: %v", err)
	}
	return rs
}
