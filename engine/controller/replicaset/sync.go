package replicaset

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/controller/refmanager"
	"github.com/rolloutlab/rolloutlab/engine/expectations"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// syncReplicaSet is BEHAVIOR §3.3. It returns the delay of the availability
// requeue it scheduled (0 when none) and the error to retry on.
func (rc *Controller) syncReplicaSet(key string) (time.Duration, error) {
	defer rc.scratch.reset()
	// 1. Stale-cache gate: nothing else runs until the informers have
	// applied this controller's own writes.
	if rc.cfg.StaleCacheGate {
		if err := rc.consistency.EnsureReady(key, rc.readRV); err != nil {
			rc.staleSkips++
			rc.emit(StaleRefusal{Key: key, Error: err.Error(), Skips: rc.staleSkips})
			return 0, err
		}
	}

	// 2. Look the ReplicaSet up in the cache.
	cached, _ := rc.replicaSets.Store().Get(key).(*appsv1.ReplicaSet)
	if cached == nil {
		rc.consistency.ClearAny(key)
		rc.expectations.Delete(key)
		rc.emit(Note{Key: key, Message: "ReplicaSet has been deleted; expectations dropped"})
		return 0, nil
	}
	rs := cached.DeepCopy()

	// 3. Expectations, evaluated before listing pods.
	check := rc.expectations.Check(key)
	rc.emit(check)

	// 4. Selector.
	selector, err := metav1.LabelSelectorAsSelector(rs.Spec.Selector)
	if err != nil {
		rc.emit(Note{Key: key, Message: "error converting pod selector to selector for rs " + key + ": " + err.Error()})
		return 0, nil
	}

	// 5-7. Candidates, claim and terminating pods: from the group counts
	// when the claim can change nothing, else by walking the pods.
	var (
		claimed     claimedPods
		terminating int
		counts      *podutil.StatusCounts
	)
	if t, ok := rc.tally(rs, selector); ok {
		rc.took(pathTallied)
		rc.emit(refmanager.KeptPodsSummary(rs, selector, int(t.status.Replicas), t.activeOrphans))
		claimed = claimedPods{n: int(t.status.Replicas), load: func() ([]*corev1.Pod, *podutil.KnownRankInputs) {
			return rc.activeOwnedPods(rs, int(t.status.Replicas))
		}}
		terminating = t.terminating
		if rs.Spec.MinReadySeconds == 0 {
			counts = &t.status
		}
	} else {
		rc.took(pathWalked)
		// 5. Candidates: owned pods plus orphans, from the owner index.
		allPods := rc.candidatePods(rs)
		active := podutil.FilterActivePods(allPods)

		// 6. Claim: adopt matching orphans, release owned pods that stopped
		// matching.
		pods, summary, err := refmanager.ClaimPods(refmanager.Env{Client: rc.server, Rec: rc.rec, Actor: ControllerName}, rs, selector, active)
		for _, c := range summary.Adopted {
			rc.consistency.RecordWrite(key, rs.UID, expectations.ResourcePods, c.RV)
		}
		rc.emit(summary)
		if err != nil {
			return 0, err
		}
		claimed = claimedPods{n: len(pods), pods: pods}

		// 7. Terminating pods this ReplicaSet controls.
		terminating = countTerminating(allPods, rs, selector)
	}

	// 8. manageReplicas, when expectations allow and the RS is not being
	// deleted.
	var manageErr error
	switch {
	case !check.Satisfied:
		rc.emit(ManageDecision{Key: key, Action: ManageSkipped, Why: "expectations pending: " + check.Text()})
	case rs.DeletionTimestamp != nil:
		rc.emit(ManageDecision{Key: key, Action: ManageSkipped, Why: "ReplicaSet is being deleted"})
	default:
		manageErr = rc.manageReplicas(key, &claimed, rs)
	}

	// 9. Status.
	now := rc.clock.Now()
	if counts == nil {
		c := podutil.CountReplicaSetPods(rs, claimed.list(), rs.Spec.MinReadySeconds, now)
		counts = &c
	}
	newStatus := podutil.ReplicaSetStatusFromCounts(rs, *counts, terminating, manageErr, now)
	updated, err := rc.updateStatus(key, rs, newStatus)
	if err != nil {
		return 0, err
	}
	rc.consistency.RecordWrite(key, rs.UID, expectations.ResourceReplicaSets, updated.ResourceVersion)

	// 10. The manageReplicas error, after the status was written.
	if manageErr != nil {
		return 0, manageErr
	}

	// 11. Availability requeue for pods that become available with time.
	if rs.Spec.MinReadySeconds > 0 && updated.Status.ReadyReplicas != updated.Status.AvailableReplicas {
		after, ok := podutil.NextAvailabilityCheck(claimed.list(), rs.Spec.MinReadySeconds, now)
		if !ok {
			after = secondsDuration(rs.Spec.MinReadySeconds)
		}
		rc.queue.AddAfter(key, "availability check: next ready pod reaches minReadySeconds", after)
		return after, nil
	}
	return 0, nil
}

// readRV gives the gate each informer store's last applied resourceVersion.
func (rc *Controller) readRV(r expectations.Resource) string {
	switch r {
	case expectations.ResourcePods:
		return rc.pods.Store().LastAppliedRV()
	case expectations.ResourceReplicaSets:
		return rc.replicaSets.Store().LastAppliedRV()
	}
	return ""
}

// candidatePods returns the cached pods controlled by rs plus the orphans
// of its namespace, from the pod owner index. Other owners' pods are never
// candidates, even when the selector matches them.
func (rc *Controller) candidatePods(rs *appsv1.ReplicaSet) []*corev1.Pod {
	store := rc.pods.Store()
	ownedKey := ownedKey(rs)
	out := make([]*corev1.Pod, 0, store.CountByIndex(informer.PodControllerIndex, ownedKey)+store.CountByIndex(informer.PodControllerIndex, rs.Namespace))
	collect := func(o apiserver.Object) {
		if p, ok := o.(*corev1.Pod); ok {
			out = append(out, p)
		}
	}
	store.EachByIndex(informer.PodControllerIndex, ownedKey, collect)
	store.EachByIndex(informer.PodControllerIndex, rs.Namespace, collect)
	return out
}

// countTerminating counts the pods of allPods that are terminating, are
// controlled by rs (UID) and match its selector.
func countTerminating(allPods []*corev1.Pod, rs *appsv1.ReplicaSet, selector labels.Selector) int {
	n := 0
	for _, p := range allPods {
		if podutil.IsPodTerminating(p) && podutil.IsControlledBy(p, rs.UID) && selector.Matches(labels.Set(p.Labels)) {
			n++
		}
	}
	return n
}

// claimedPods are the active pods a sync claimed: n of them, listed by
// list. A sync that tallied counts instead of walking lists them only when
// something needs the pods themselves (a scale-down, minReadySeconds).
type claimedPods struct {
	n int
	// pods is the list once known; load builds it, with the pods' ranking
	// inputs, when nil.
	pods []*corev1.Pod
	load func() ([]*corev1.Pod, *podutil.KnownRankInputs)
	// known, when not nil, holds the nodes and ranking inputs of pods in
	// their order as listed (before any caller reorders them).
	known *podutil.KnownRankInputs
}

// list returns the claimed pods, building them on first use. Callers may
// reorder the slice (a scale-down sorts it), never change its contents.
func (c *claimedPods) list() []*corev1.Pod {
	if c.pods == nil && c.load != nil {
		c.pods, c.known = c.load()
		c.load = nil
	}
	return c.pods
}

func secondsDuration(s int32) time.Duration { return time.Duration(s) * time.Second }
