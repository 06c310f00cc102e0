package replicaset

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/expectations"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// manageReplicas is BEHAVIOR §3.4: it creates or deletes pods so that the
// active claimed pods match spec.replicas, at most BurstReplicas per sync.
// Only a scale-down lists the pods, and reorders the list by rank.
func (rc *Controller) manageReplicas(key string, active *claimedPods, rs *appsv1.ReplicaSet) error {
	desired := int(replicasOf(rs))
	d := ManageDecision{Key: key, Active: active.n, Desired: desired, Diff: active.n - desired}
	switch {
	case d.Diff < 0:
		return rc.scaleUp(d, rs)
	case d.Diff > 0:
		pods := active.list()
		return rc.scaleDown(d, pods, active.known, rs)
	}
	d.Action = ManageNothing
	rc.emit(d)
	return nil
}

// scaleUp expects the creations first, then creates in slow-start batches
// and un-expects every pod that failed or was never attempted.
func (rc *Controller) scaleUp(d ManageDecision, rs *appsv1.ReplicaSet) error {
	n := -d.Diff
	if n > rc.cfg.BurstReplicas {
		n, d.Burst = rc.cfg.BurstReplicas, rc.cfg.BurstReplicas
	}
	d.Action, d.Count, d.Batches = ManageCreate, n, plannedBatches(n, slowStartInitialBatchSize)
	rc.emit(d)

	rc.expectations.ExpectCreations(d.Key, n)
	// Every create of the batch sends the same request body: built once.
	body, bodyErr := podFromTemplate(rs, podNamePrefix(rs.Name))
	attempted := 0
	successes, _, err := podutil.SlowStartBatch(n, slowStartInitialBatchSize, func(int) error {
		attempted++
		if bodyErr != nil {
			return bodyErr
		}
		err := rc.createPod(rs, body)
		if err != nil && apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
			// Counted as a success: its expectation waits for the TTL.
			return nil
		}
		return err
	})
	skipped := n - successes
	for i := 0; i < skipped; i++ {
		rc.expectations.CreationObserved(d.Key)
	}
	res := ManageResult{Key: d.Key, Action: ManageCreate, Planned: n, Attempted: attempted, Succeeded: successes, Unexpected: skipped}
	if err != nil {
		res.Error = err.Error()
	}
	rc.emit(res)
	return err
}

// createPod creates one pod of rs from body (podFromTemplate's request
// body, shared by the creates of a batch) and records the Event.
func (rc *Controller) createPod(rs *appsv1.ReplicaSet, body *corev1.Pod) error {
	created, err := rc.podControl.CreatePod(ControllerName, body)
	if err != nil {
		if !apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
			rc.recordEvent(rs, corev1.EventTypeWarning, ReasonFailedCreate, "Error creating: "+err.Error())
		}
		return err
	}
	// The stale-cache gate waits for the pod informer to apply this create,
	// filed under the new pod's controller.
	if ref := metav1.GetControllerOfNoCopy(created); ref != nil {
		rc.consistency.RecordWrite(keyOf(created.Namespace, ref.Name), ref.UID, expectations.ResourcePods, created.ResourceVersion)
	}
	rc.recordEvent(rs, corev1.EventTypeNormal, ReasonSuccessfulCreate, "Created pod: "+created.Name)
	return nil
}

// scaleDown ranks the active pods against the pods of every ReplicaSet with
// the same controller, expects the victims' deletions by key, and deletes
// them with plain graceful deletes.
//
// known, when not nil, holds active's nodes and ranking inputs from the pod
// store, read instead of the pods.
func (rc *Controller) scaleDown(d ManageDecision, active []*corev1.Pod, known *podutil.KnownRankInputs, rs *appsv1.ReplicaSet) error {
	n := d.Diff
	if n > rc.cfg.BurstReplicas {
		n, d.Burst = rc.cfg.BurstReplicas, rc.cfg.BurstReplicas
	}
	d.Action, d.Count = ManageDelete, n
	rc.emit(d)

	victims, ranking := podutil.GetPodsToDeleteExplainedByNodeCounts(d.Key, active, known, rc.relatedPodsPerNode(rs), n, rc.clock.Now(), rankingSurvivorsShown)
	rc.emit(ranking)

	keys := make([]string, len(victims))
	for i, p := range victims {
		keys[i] = podKey(p)
	}
	if old := rc.expectations.PendingDeleteKeys(d.Key); len(old) > 0 {
		rc.emit(Note{Key: d.Key, Message: fmt.Sprintf("Clobbering existing delete keys: %v", old)})
	}
	rc.expectations.ExpectDeletionKeys(d.Key, keys)

	res := ManageResult{Key: d.Key, Action: ManageDelete, Planned: len(victims)}
	var firstErr error
	for _, p := range victims {
		res.Attempted++
		err := rc.deletePodRequest(rs, p)
		if err == nil {
			res.Succeeded++
			continue
		}
		// The deletion will never be observed: stop waiting for it.
		rc.expectations.DeletionObservedKey(d.Key, podKey(p))
		res.Unexpected++
		if !apierrors.IsNotFound(err) && firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		res.Error = firstErr.Error()
	}
	rc.emit(res)
	return firstErr
}

// deletePodRequest sends a plain delete (no options: the pod's own grace
// period, no preconditions) and records the Event. NotFound is returned as
// is and recorded by no Event; other errors become "unable to delete pods:".
func (rc *Controller) deletePodRequest(rs *appsv1.ReplicaSet, pod *corev1.Pod) error {
	err := rc.podControl.DeletePod(ControllerName, pod.Namespace, pod.Name, apiserver.DeleteOptions{})
	switch {
	case err == nil:
		rc.recordEvent(rs, corev1.EventTypeNormal, ReasonSuccessfulDelete, "Deleted pod: "+pod.Name)
		return nil
	case apierrors.IsNotFound(err):
		return err
	}
	rc.recordEvent(rs, corev1.EventTypeWarning, ReasonFailedDelete, "Error deleting: "+err.Error())
	return fmt.Errorf("unable to delete pods: %v", err)
}

// relatedPodsPerNode returns what a ranking reads from rs's related pods,
// counted only when it is called: the active cached pods selected by every
// ReplicaSet that has the same controller as rs (rs included), counted once
// each, per node name (podutil.ActivePerNode). A ReplicaSet without a
// controller has no related pods, which is reported at once.
//
// A cached pod is one object, so a pod was already counted exactly when an
// earlier ReplicaSet of the same namespace (in ReplicaSet-index order)
// selects it: the deduplication re-checks those selectors instead of
// keeping a set of UIDs.
func (rc *Controller) relatedPodsPerNode(rs *appsv1.ReplicaSet) func() map[string]int {
	ref := metav1.GetControllerOfNoCopy(rs)
	if ref == nil {
		rc.emit(Note{Key: keyOf(rs.Namespace, rs.Name), Message: "ReplicaSet has no controller: " + keyOf(rs.Namespace, rs.Name)})
		return func() map[string]int { return map[string]int{} }
	}
	return func() map[string]int {
		var earlier []relatedScope
		perNode := map[string]int{}
		for _, obj := range rc.replicaSets.Store().ByIndex(informer.ControllerUIDIndex, string(ref.UID)) {
			relRS, ok := obj.(*appsv1.ReplicaSet)
			if !ok {
				continue
			}
			sel, err := metav1.LabelSelectorAsSelector(relRS.Spec.Selector)
			if err != nil {
				continue // an invalid selector matches no pods
			}
			proved := rc.addSelectedFromGroups(relRS, sel, earlier, perNode)
			if proved {
				rc.took(pathGroupsProved)
			} else {
				rc.took(pathGroupsWalked)
			}
			if !proved {
				rc.pods.Store().EachMatching(relRS.Namespace, sel, func(o apiserver.Object) {
					p, ok := o.(*corev1.Pod)
					if ok && podutil.IsPodActive(p) && !selectedEarlier(earlier, p.Namespace, p.Labels) {
						perNode[p.Spec.NodeName]++
					}
				})
			}
			earlier = append(earlier, relatedScope{ns: relRS.Namespace, sel: sel})
		}
		return perNode
	}
}

// relatedScope is a related ReplicaSet's namespace and selector.
type relatedScope struct {
	ns  string
	sel labels.Selector
}

// selectedEarlier reports whether a pod of namespace ns with labels lbls is
// selected by one of the scopes.
func selectedEarlier(scopes []relatedScope, ns string, lbls map[string]string) bool {
	for _, e := range scopes {
		if e.ns == ns && e.sel.Matches(labels.Set(lbls)) {
			return true
		}
	}
	return false
}

// plannedBatches lists the slow-start batch sizes for count creates when
// every create succeeds: initial, then doubling, each capped by what
// remains.
//
// Example: plannedBatches(10, 1) = [1 2 4 3].
func plannedBatches(count, initial int) []int {
	var out []int
	for size, remaining := min(count, initial), count; size > 0; size = min(2*size, remaining) {
		out = append(out, size)
		remaining -= size
	}
	return out
}
