package replicaset

import (
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

func queueAdds(p trace.Payload) bool {
	return p.Kind() == trace.KindQueue && strings.Contains(p.Text(), " add ")
}

// A delete missed by the watch arrives as a tombstone: its pod still counts
// as an observed deletion of its owner.
func TestPodTombstoneObservesDeletion(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createRS("web", 2, 0)
	e.settle()
	pods := e.srv.ListPods("default", nil)
	e.rc.Expectations().ExpectDeletionKeys("default/web", []string{podKey(pods[0])})
	e.resetMark()
	e.rc.deletePod(informer.Tombstone{Key: podKey(pods[0]), Obj: pods[0]})
	got := e.since(queueAdds)
	if len(got) != 1 || !strings.Contains(got[0], "(pod "+pods[0].Name+" deleted (tombstone) (deletion observed))") {
		t.Errorf("adds %v", got)
	}
	if c := e.rc.Expectations().Check("default/web"); c.Del != 0 || !c.Satisfied {
		t.Errorf("expectations %s", c.Text())
	}
}

// Deleting the ReplicaSet drops its expectations; the sync then finds it
// gone and does nothing else.
func TestReplicaSetDeleteDropsExpectations(t *testing.T) {
	cfg := DefaultConfig()
	e := newEnv(t, cfg)
	e.createRS("web", 3, 0)
	e.deliver()
	e.sync() // expects 3 creations
	if err := e.srv.Delete("kubectl", "replicasets", "default", "web", noOptions()); err != nil {
		t.Fatal(err)
	}
	e.deliverRSOnly()
	if _, _, ok := e.rc.Expectations().Get("default/web"); ok {
		t.Error("expectations survived the ReplicaSet delete")
	}
	e.resetMark()
	e.sync()
	got := e.since(decisions)
	expectLines(t, "sync of a deleted ReplicaSet", got[1:], []string{
		"default/web: ReplicaSet has been deleted; expectations dropped",
		"sync default/web done: ok",
	})
}

// Pod events resolve their controller by name and UID: a pod whose owner
// was re-created under the same name (new UID) wakes nobody.
func TestPodOfReplacedOwnerIsIgnored(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	old := e.createRS("web", 0, 0)
	e.settle()
	if err := e.srv.Delete("kubectl", "replicasets", "default", "web", noOptions()); err != nil {
		t.Fatal(err)
	}
	e.createRS("web", 0, 0)
	e.settle()
	e.createPod("stray", prod, old)
	e.resetMark()
	e.deliver()
	if got := e.since(queueAdds); len(got) != 0 {
		t.Errorf("a pod of the old ReplicaSet enqueued %v", got)
	}
}

// A pod that an adoption patch gives a controller reference enqueues its
// new owner with a reason saying so.
func TestAdoptionUpdateReason(t *testing.T) {
	e := newEnv(t, DefaultConfig())
	e.createPod("test", prod, nil)
	e.deliver()
	e.createRS("replicatest", 1, 0)
	e.deliver()
	e.sync()
	e.resetMark()
	e.deliver()
	got := strings.Join(e.since(queueAdds), "\n")
	if !strings.Contains(got, "(pod default/test adopted (controller reference set))") {
		t.Errorf("adds:\n%s", got)
	}
}
