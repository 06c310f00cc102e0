package replicaset

import (
	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// updateStatus writes newStatus to rs (BEHAVIOR §3.6). The write is skipped,
// and rs returned as is, when the counts, terminatingReplicas and conditions
// are unchanged and observedGeneration is current. Otherwise
// observedGeneration is set to rs's generation and UpdateStatus is sent with
// rs's resourceVersion; on failure the ReplicaSet is read again and the same
// status written once more. rs is the controller's own copy.
func (rc *Controller) updateStatus(key string, rs *appsv1.ReplicaSet, newStatus appsv1.ReplicaSetStatus) (*appsv1.ReplicaSet, error) {
	rec := StatusWrite{
		Key: key, Replicas: newStatus.Replicas, FullyLabeled: newStatus.FullyLabeledReplicas,
		Ready: newStatus.ReadyReplicas, Available: newStatus.AvailableReplicas, Terminating: copyInt32(newStatus.TerminatingReplicas),
	}
	for _, c := range newStatus.Conditions {
		if c.Type == appsv1.ReplicaSetReplicaFailure {
			rec.ReplicaFailure = c.Reason
		}
	}
	if podutil.StatusUnchanged(rs, newStatus) {
		rec.Outcome, rec.RV = StatusSkipped, rs.ResourceVersion
		rc.emit(rec)
		return rs, nil
	}
	newStatus.ObservedGeneration = rs.Generation
	cur := rs
	for attempt := 0; ; attempt++ {
		cur.Status = newStatus
		rec.Attempts++
		updated, err := rc.server.UpdateReplicaSetStatus(ControllerName, cur)
		if err == nil {
			rec.Outcome, rec.RV = StatusWritten, updated.ResourceVersion
			rc.emit(rec)
			return updated, nil
		}
		if attempt >= statusUpdateRetries {
			rec.Outcome, rec.Error = StatusFailed, err.Error()
			rc.emit(rec)
			return nil, err
		}
		fresh, getErr := rc.server.GetReplicaSet(rs.Namespace, rs.Name)
		if getErr != nil {
			rec.Outcome, rec.Error = StatusFailed, getErr.Error()
			rc.emit(rec)
			return nil, getErr
		}
		cur = fresh.DeepCopy()
	}
}

func copyInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
