package deployment

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// getAllReplicaSetsAndSyncRevision splits rsList into the new ReplicaSet
// and all old ones, syncing the revision bookkeeping; with create it also
// creates the new ReplicaSet when there is none (BEHAVIOR §4.8). newRS may be
// nil. rsList is sorted in place, oldest first.
func (dc *Controller) getAllReplicaSetsAndSyncRevision(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet, create bool) (*appsv1.ReplicaSet, []*appsv1.ReplicaSet, error) {
	_, allOldRSs := dc.templates.findOldReplicaSets(d, rsList)
	newRS, err := dc.getNewReplicaSet(d, rsList, allOldRSs, create)
	if err != nil {
		return nil, nil, err
	}
	return newRS, allOldRSs, nil
}

// getNewReplicaSet returns the new ReplicaSet with its revision synced, or
// creates it when create is set. Writes to d (revision annotation,
// Progressing condition, collisionCount) go through UpdateStatus with d's
// cached resourceVersion.
func (dc *Controller) getNewReplicaSet(d *appsv1.Deployment, rsList, oldRSs []*appsv1.ReplicaSet, create bool) (*appsv1.ReplicaSet, error) {
	existing := dc.templates.findNewReplicaSet(d, rsList)
	maxOld := deployutil.MaxRevision(oldRSs)
	newRevision := strconv.FormatInt(maxOld+1, 10)
	dec := RevisionDecision{Deployment: d.Namespace + "/" + d.Name, MaxOldRevision: maxOld, NewRevision: newRevision}
	now := dc.clock.Now()

	if existing != nil {
		dec.NewRS = existing.Name
		rsCopy := existing.DeepCopy()
		annotationsUpdated := deployutil.SetNewReplicaSetAnnotations(d, rsCopy, newRevision, true, deployutil.RevisionHistoryLimitChars)
		minReadyChanged := rsCopy.Spec.MinReadySeconds != d.Spec.MinReadySeconds
		if annotationsUpdated || minReadyChanged {
			// Only the ReplicaSet is written in this pass; d's revision
			// follows on the next sync.
			rsCopy.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			dec.Action = "found: RS updated"
			dec.Detail = fmt.Sprintf("annotations changed %t, minReadySeconds changed %t; RS revision %s",
				annotationsUpdated, minReadyChanged, rsCopy.Annotations[deployutil.RevisionAnnotation])
			dc.emit(dec)
			return dc.server.UpdateReplicaSet(source, rsCopy)
		}

		needsUpdate := setDeploymentRevision(d, rsCopy.Annotations[deployutil.RevisionAnnotation])
		dec.Action = "found"
		dec.Detail = "deployment revision " + d.Annotations[deployutil.RevisionAnnotation]
		if needsUpdate {
			dec.Detail += " (updated)"
		}
		dc.emit(dec)
		if deployutil.HasProgressDeadline(d) && deployutil.GetDeploymentCondition(&d.Status, appsv1.DeploymentProgressing) == nil {
			msg := fmt.Sprintf("Found new replica set %q", rsCopy.Name)
			dc.setCondition(d, deployutil.NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, deployutil.ReasonFoundNewRS, msg, now))
			needsUpdate = true
		}
		if !needsUpdate {
			return rsCopy, nil
		}
		return rsCopy, dc.writeStatus(d)
	}

	if !create {
		dec.Action = "none (create=false)"
		dc.emit(dec)
		return nil, nil
	}

	newRS, sizing, err := dc.buildNewReplicaSet(d, oldRSs, newRevision)
	dc.emit(sizing)
	if err != nil {
		return nil, err
	}
	dec.NewRS = newRS.Name
	created, err := dc.server.CreateReplicaSet(source, newRS)
	alreadyExists := false
	switch {
	case apierrors.IsAlreadyExists(err):
		alreadyExists = true
		// Upstream reads the clashing ReplicaSet from the cache.
		rs, ok := dc.rsInformer.Store().Get(d.Namespace + "/" + newRS.Name).(*appsv1.ReplicaSet)
		if !ok {
			// The lister's NotFound (singular resource, as client-go's
			// listers spell it) replaces the AlreadyExists error.
			nf := apierrors.NewNotFound(appsv1.Resource("replicaset"), newRS.Name)
			dec.Action, dec.Detail = "create failed", err.Error()+"; "+nf.Error()+" in the cache"
			dc.emit(dec)
			return nil, nf
		}
		if podutil.IsControlledBy(rs, d.UID) && deployutil.EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			created, err = rs, nil
			dec.Action = "existing RS re-used after AlreadyExists"
			break
		}
		// A different object holds the name: bump collisionCount so the
		// next sync hashes to a different name.
		if d.Status.CollisionCount == nil {
			d.Status.CollisionCount = new(int32)
		}
		before := *d.Status.CollisionCount
		*d.Status.CollisionCount++
		dec.Action = "hash collision"
		dec.Detail = fmt.Sprintf("%s exists and is not ours; collisionCount %d -> %d", newRS.Name, before, *d.Status.CollisionCount)
		dc.emit(dec)
		_ = dc.writeStatus(d)
		return nil, err
	case apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
		dec.Action, dec.Detail = "create failed", err.Error()
		dc.emit(dec)
		return nil, err
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.Name, err)
		dec.Action, dec.Detail = "create failed", err.Error()
		dc.emit(dec)
		if deployutil.HasProgressDeadline(d) {
			dc.setCondition(d, deployutil.NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionFalse, deployutil.ReasonFailedRSCreate, msg, now))
			_ = dc.writeStatus(d)
		}
		dc.recordEvent(d, corev1.EventTypeWarning, ReasonReplicaSetCreateError, msg)
		return nil, err
	default:
		dec.Action = "created"
		dec.Detail = fmt.Sprintf("replicas %d", *newRS.Spec.Replicas)
	}
	dc.emit(dec)
	if !alreadyExists && *newRS.Spec.Replicas > 0 {
		dc.eventf(d, corev1.EventTypeNormal, ReasonScalingReplicaSet, "Scaled up replica set %s from 0 to %d", created.Name, *newRS.Spec.Replicas)
	}
	needsUpdate := setDeploymentRevision(d, newRevision)
	if !alreadyExists && deployutil.HasProgressDeadline(d) {
		msg := fmt.Sprintf("Created new replica set %q", created.Name)
		dc.setCondition(d, deployutil.NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, deployutil.ReasonNewRSCreated, msg, now))
		needsUpdate = true
	}
	if needsUpdate {
		err = dc.writeStatus(d)
	}
	return created, err
}

// buildNewReplicaSet builds the ReplicaSet for d's current template: name
// and pod-template-hash from the template and collisionCount, the
// controllerRef, size from NewRSNewReplicas and the creation annotations.
func (dc *Controller) buildNewReplicaSet(d *appsv1.Deployment, oldRSs []*appsv1.ReplicaSet, newRevision string) (*appsv1.ReplicaSet, deployutil.NewRSMath, error) {
	rs := deployutil.NewReplicaSet(d, deployutil.ComputeHash(&d.Spec.Template, d.Status.CollisionCount))
	allRSs := append(append(make([]*appsv1.ReplicaSet, 0, len(oldRSs)+1), oldRSs...), rs)
	sizing, err := deployutil.ExplainNewRSNewReplicas(d, allRSs, rs)
	if err != nil {
		return nil, sizing, err
	}
	n := sizing.Result
	rs.Spec.Replicas = &n
	deployutil.SetNewReplicaSetAnnotations(d, rs, newRevision, false, deployutil.RevisionHistoryLimitChars)
	return rs, sizing, nil
}

// setDeploymentRevision sets d's revision annotation and reports whether it
// changed.
func setDeploymentRevision(d *appsv1.Deployment, revision string) bool {
	if d.Annotations[deployutil.RevisionAnnotation] == revision {
		return false
	}
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[deployutil.RevisionAnnotation] = revision
	return true
}
