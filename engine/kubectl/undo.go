package kubectl

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// Undo rolls a Deployment back the way `kubectl rollout undo` does, client
// side:
//
//  1. Pick the ReplicaSet of revision toRevision among those d controls; 0
//     means the previous revision (the second highest). None found is
//     ErrRevisionNotFound with kubectl's message.
//  2. Refuse a paused Deployment (ErrPaused, kubectl's message).
//  3. If that ReplicaSet's template already equals d's (pod-template-hash
//     ignored), write nothing: "deployment.apps/web skipped rollback
//     (current template already matches revision N)".
//  4. Otherwise replace d's template with the ReplicaSet's minus the
//     pod-template-hash label, and d's annotations with the ReplicaSet's,
//     keeping d's own values of the rollback skip-list keys (revision,
//     revision-history, desired/max replicas, last-applied, rollback-to):
//     "deployment.apps/web rolled back".
func (k *Kubectl) Undo(ns, name string, toRevision int64) (string, error) {
	cur, err := k.srv.GetDeployment(ns, name)
	if err != nil {
		return "", err
	}
	var sel labels.Selector = labels.Everything()
	rs, err := revisionReplicaSet(cur, ownedBy(cur, k.srv.ListReplicaSets(ns, sel)), toRevision)
	if err != nil {
		return "", err
	}
	if cur.Spec.Paused {
		return "", failf(ErrPaused, "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/%s' and try again", name)
	}
	target := objectName(apiserver.Deployments, name)
	if equalIgnoreHash(&rs.Spec.Template, &cur.Spec.Template) {
		rev, _ := revisionOf(rs)
		return target + " skipped rollback (current template already matches revision " + strconv.FormatInt(rev, 10) + ")", nil
	}
	d := cur.DeepCopy()
	d.Spec.Template = *rs.Spec.Template.DeepCopy()
	delete(d.Spec.Template.Labels, appsv1.DefaultDeploymentUniqueLabelKey)
	ann := map[string]string{}
	for k, v := range cur.Annotations {
		if rollbackSkipAnnotations[k] {
			ann[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !rollbackSkipAnnotations[k] {
			ann[k] = v
		}
	}
	d.Annotations = ann
	if _, err := k.srv.UpdateDeployment(Actor, d); err != nil {
		return "", err
	}
	return target + " rolled back", nil
}

// revisionReplicaSet returns the ReplicaSet of revision toRevision, or of
// the previous revision when toRevision is 0.
func revisionReplicaSet(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, toRevision int64) (*appsv1.ReplicaSet, error) {
	var latest, previous *appsv1.ReplicaSet
	var latestRev, previousRev int64
	for _, rs := range rss {
		v, ok := revisionOf(rs)
		if !ok {
			continue
		}
		if toRevision > 0 {
			if v == toRevision {
				return rs, nil
			}
			continue
		}
		switch {
		case v > latestRev:
			previous, previousRev = latest, latestRev
			latest, latestRev = rs, v
		case v > previousRev && v != latestRev:
			previous, previousRev = rs, v
		}
	}
	if toRevision > 0 {
		return nil, failf(ErrRevisionNotFound, "unable to find specified revision %d in history", toRevision)
	}
	if previous == nil {
		return nil, failf(ErrRevisionNotFound, "no rollout history found for deployment %q", d.Name)
	}
	return previous, nil
}
