package gc

import (
	"fmt"
	"reflect"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// Step catches up with the watch log, then processes exactly one ready item
// and records what it did. It returns false when nothing was ready.
func (g *Collector) Step() bool {
	g.Observe()
	g.queue.promote(g.clock.Now())
	it, ok := g.queue.pop()
	if !ok {
		return false
	}
	n := g.nodes.At(it.uid)
	if n == nil {
		return true // removed from the graph since it was queued
	}
	var err error
	queue := it.queue.String()
	switch {
	case it.queue == attemptToOrphan:
		err = g.orphan(n)
	case n.deletingDependents:
		queue = "deletingDependents"
		err = g.attemptToDelete(n, queue)
	default:
		err = g.attemptToDelete(n, queue)
	}
	if err != nil {
		g.queue.addAt(it, g.clock.Now().Add(g.RetryDelay))
		g.emit(queue, n, "", fmt.Sprintf("retry in %s: %v", g.RetryDelay, err))
	}
	return true
}

// attemptToDelete follows BEHAVIOR §7.3.
func (g *Collector) attemptToDelete(n *node, queue string) error {
	if n.beingDeleted && !n.deletingDependents {
		g.emit(queue, n, "being deleted", "skip")
		return nil
	}
	latest, err := g.srv.Get(n.ref.Resource, n.ref.Namespace, n.ref.Name)
	switch {
	case apierrors.IsNotFound(err):
		g.emit(queue, n, "absent", "virtual delete event")
		g.removeNode(n)
		return nil
	case err != nil:
		return err
	case latest.GetUID() != n.ref.UID:
		g.emit(queue, n, "absent (uid "+string(latest.GetUID())+" found)", "virtual delete event")
		g.removeNode(n)
		return nil
	}
	if n.deletingDependents {
		return g.processDeletingDependents(n, queue)
	}
	refs := latest.GetOwnerReferences()
	if len(refs) == 0 {
		g.emit(queue, n, "no owners", "nothing to do")
		return nil
	}
	solid, dangling, waiting, err := g.classify(n, refs)
	if err != nil {
		return err
	}
	verdict := fmt.Sprintf("solid=%s dangling=%s waiting=%s", names(solid), names(dangling), names(waiting))
	switch {
	case len(solid) > 0:
		if len(dangling)+len(waiting) == 0 {
			g.emit(queue, n, verdict, "keep")
			return nil
		}
		for _, r := range append(dangling, waiting...) {
			if _, err := g.srv.ReleaseObject(actor, n.ref.Resource, n.ref.Namespace, n.ref.Name, n.ref.UID, r.UID); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
		}
		g.emit(queue, n, verdict, "keep, remove references to "+names(append(dangling, waiting...)))
		return nil
	case len(waiting) > 0 && n.dependents.Len() > 0:
		for _, d := range g.sortedDependents(n) {
			if d.deletingDependents {
				// Break a possible cycle: stop blocking the owners this
				// item waits for.
				if err := g.unblockOwners(n, refs); err != nil {
					return err
				}
				break
			}
		}
		return g.deleteItem(n, latest, verdict, queue, metav1.DeletePropagationForeground)
	default:
		policy := metav1.DeletePropagationBackground
		switch fins := latest.GetFinalizers(); {
		case hasFinalizer(fins, metav1.FinalizerOrphanDependents):
			policy = metav1.DeletePropagationOrphan
		case hasFinalizer(fins, metav1.FinalizerDeleteDependents):
			policy = metav1.DeletePropagationForeground
		}
		return g.deleteItem(n, latest, verdict, queue, policy)
	}
}

// classify sorts the ownerReferences of n into solid, dangling (owner
// absent or re-created) and waiting (owner deleting in foreground).
func (g *Collector) classify(n *node, refs []metav1.OwnerReference) (solid, dangling, waiting []metav1.OwnerReference, err error) {
	for _, r := range refs {
		key := absentKey{namespace: n.ref.Namespace, uid: r.UID}
		if g.absent.has(key) || g.absent.has(absentKey{uid: r.UID}) {
			dangling = append(dangling, r)
			continue
		}
		res, ok := apiserver.ResourceForKind(r.Kind)
		if !ok {
			solid = append(solid, r) // not ours to judge
			continue
		}
		owner, gerr := g.srv.Get(res, n.ref.Namespace, r.Name)
		switch {
		case apierrors.IsNotFound(gerr):
			g.absent.add(key)
			dangling = append(dangling, r)
		case gerr != nil:
			return nil, nil, nil, gerr
		case owner.GetUID() != r.UID:
			g.absent.add(key)
			dangling = append(dangling, r)
		case owner.GetDeletionTimestamp() != nil && hasFinalizer(owner.GetFinalizers(), metav1.FinalizerDeleteDependents):
			waiting = append(waiting, r)
		default:
			solid = append(solid, r)
		}
	}
	return solid, dangling, waiting, nil
}

// deleteItem deletes n with UID and resourceVersion preconditions; on a
// Conflict with unchanged ownerReferences it retries without the RV.
func (g *Collector) deleteItem(n *node, latest apiserver.Object, verdict, queue string, policy metav1.DeletionPropagation) error {
	uid, rv := latest.GetUID(), latest.GetResourceVersion()
	opts := apiserver.DeleteOptions{PropagationPolicy: &policy, Preconditions: &metav1.Preconditions{UID: &uid, ResourceVersion: &rv}}
	err := g.srv.Delete(actor, n.ref.Resource, n.ref.Namespace, n.ref.Name, opts)
	if apierrors.IsConflict(err) {
		live, gerr := g.srv.Get(n.ref.Resource, n.ref.Namespace, n.ref.Name)
		switch {
		case apierrors.IsNotFound(gerr):
			err = nil
		case gerr != nil:
			err = gerr
		case live.GetUID() == uid && reflect.DeepEqual(live.GetOwnerReferences(), latest.GetOwnerReferences()):
			opts.Preconditions.ResourceVersion = nil
			err = g.srv.Delete(actor, n.ref.Resource, n.ref.Namespace, n.ref.Name, opts)
		}
	}
	if apierrors.IsNotFound(err) {
		err = nil
	}
	if err != nil {
		return err
	}
	g.emit(queue, n, verdict, "delete propagation="+string(policy))
	return nil
}

// unblockOwners sets blockOwnerDeletion=false on n's blocking references.
func (g *Collector) unblockOwners(n *node, refs []metav1.OwnerReference) error {
	for _, r := range refs {
		if r.BlockOwnerDeletion == nil || !*r.BlockOwnerDeletion {
			continue
		}
		no := false
		r.BlockOwnerDeletion = &no
		if _, err := g.srv.AdoptObject(actor, n.ref.Resource, n.ref.Namespace, n.ref.Name, n.ref.UID, r); err != nil {
			return err
		}
	}
	g.emit("attemptToDelete", n, "dependent deleting in foreground", "unblock owner references")
	return nil
}

// processDeletingDependents follows BEHAVIOR §7.4.
func (g *Collector) processDeletingDependents(n *node, queue string) error {
	var blocking []*node
	for _, d := range g.sortedDependents(n) {
		if blocks(d, n.ref.UID) {
			blocking = append(blocking, d)
		}
	}
	if len(blocking) == 0 {
		if _, err := g.srv.RemoveFinalizer(actor, n.ref.Resource, n.ref.Namespace, n.ref.Name, metav1.FinalizerDeleteDependents); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		g.emit(queue, n, "blocking=0", "remove finalizer "+metav1.FinalizerDeleteDependents)
		return nil
	}
	var waitingFor []string
	for _, d := range blocking {
		waitingFor = append(waitingFor, d.ref.String())
		if !d.deletingDependents {
			g.enqueue(attemptToDelete, d, "blocks "+n.ref.String())
		}
	}
	g.emit(queue, n, fmt.Sprintf("blocking=%d", len(blocking)), "wait for "+strings.Join(waitingFor, ", "))
	return nil
}

// orphan follows BEHAVIOR §7.5.
func (g *Collector) orphan(n *node) error {
	deps := g.sortedDependents(n)
	for _, d := range deps {
		if _, err := g.srv.ReleaseObject(actor, d.ref.Resource, d.ref.Namespace, d.ref.Name, d.ref.UID, n.ref.UID); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	if _, err := g.srv.RemoveFinalizer(actor, n.ref.Resource, n.ref.Namespace, n.ref.Name, metav1.FinalizerOrphanDependents); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	g.emit("attemptToOrphan", n, fmt.Sprintf("dependents=%d", len(deps)), "release dependents, remove finalizer orphan")
	return nil
}

// names renders references as "[Kind/name ...]".
func names(refs []metav1.OwnerReference) string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = r.Kind + "/" + r.Name
	}
	return "[" + strings.Join(parts, " ") + "]"
}
