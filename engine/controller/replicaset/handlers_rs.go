package replicaset

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/informer"
)

// addRS enqueues a new ReplicaSet.
func (rc *Controller) addRS(obj apiserver.Object) {
	rs, ok := obj.(*appsv1.ReplicaSet)
	if !ok {
		return
	}
	rc.enqueue(rs, "replicaset "+keyOf(rs.Namespace, rs.Name)+" added")
}

// updateRS always enqueues: there is no resourceVersion check, so resyncs
// and the controller's own status writes trigger a sync too. A changed UID
// means the old object was deleted and re-created: its delete is handled
// first.
func (rc *Controller) updateRS(oldObj, newObj apiserver.Object) {
	oldRS, ok1 := oldObj.(*appsv1.ReplicaSet)
	cur, ok2 := newObj.(*appsv1.ReplicaSet)
	if !ok1 || !ok2 {
		return
	}
	key := keyOf(cur.Namespace, cur.Name)
	if oldRS.UID != cur.UID {
		rc.deleteRS(informer.Tombstone{Key: keyOf(oldRS.Namespace, oldRS.Name), Obj: oldRS})
	}
	reason := "replicaset " + key + " updated"
	if o, n := replicasOf(oldRS), replicasOf(cur); o != n {
		reason += " (replicas " + strconv.Itoa(int(o)) + " -> " + strconv.Itoa(int(n)) + ")"
	}
	rc.enqueue(cur, reason)
}

// deleteRS drops the ReplicaSet's consistency record (same UID only) and
// expectations, and enqueues the key so the sync finds it gone.
func (rc *Controller) deleteRS(obj any) {
	var rs *appsv1.ReplicaSet
	tomb := false
	switch o := obj.(type) {
	case *appsv1.ReplicaSet:
		rs = o
	case informer.Tombstone:
		rs, _ = o.Obj.(*appsv1.ReplicaSet)
		tomb = true
	}
	if rs == nil {
		return
	}
	key := keyOf(rs.Namespace, rs.Name)
	rc.consistency.Clear(key, rs.UID)
	rc.expectations.Delete(key)
	reason := "replicaset " + key + " deleted"
	if tomb {
		reason += " (tombstone)"
	}
	rc.enqueue(rs, reason)
}

// replicasOf is spec.replicas with the API default 1 for nil.
func replicasOf(rs *appsv1.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}
