package deployment

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// rollback is the controller path of the deprecated rollback annotation
// (BEHAVIOR §4.6): find the ReplicaSet of the target revision (0 means the
// one before the latest), copy its template into d, drop the annotation and
// Update d. Every path ends with that Update.
func (dc *Controller) rollback(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet, target int64) error {
	newRS, allOldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := withNew(allOldRSs, newRS)

	if target == 0 {
		target = deployutil.LastRevision(allRSs)
		dc.emit(Note{Message: fmt.Sprintf("rollback %s/%s: revision 0 means the last revision -> %d", d.Namespace, d.Name, target)})
		if target == 0 {
			dc.recordEvent(d, corev1.EventTypeWarning, ReasonRollbackRevisionNotFound, "Unable to find last revision.")
			return dc.clearRollbackAndUpdate(d)
		}
	}
	for _, rs := range allRSs {
		if rs == nil {
			continue
		}
		v, err := deployutil.Revision(rs)
		if err != nil || v != target {
			continue
		}
		performed, err := dc.rollbackToTemplate(d, rs)
		if performed && err == nil {
			dc.eventf(d, corev1.EventTypeNormal, ReasonRollback, "Rolled back deployment %q to revision %d", d.Name, target)
		}
		return err
	}
	dc.recordEvent(d, corev1.EventTypeWarning, ReasonRollbackRevisionNotFound, "Unable to find the revision to rollback to.")
	return dc.clearRollbackAndUpdate(d)
}

// rollbackToTemplate copies rs's template (without the hash label) and its
// annotations into d when the templates differ, then clears the rollback
// annotation and Updates d. It reports whether the template was changed.
func (dc *Controller) rollbackToTemplate(d *appsv1.Deployment, rs *appsv1.ReplicaSet) (bool, error) {
	performed := false
	if !deployutil.EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
		t := rs.Spec.Template.DeepCopy()
		delete(t.Labels, deployutil.DefaultPodTemplateHashLabel)
		d.Spec.Template.ObjectMeta = t.ObjectMeta
		d.Spec.Template.Spec = t.Spec
		setAnnotationsFromReplicaSet(d, rs)
		performed = true
		dc.emit(Note{Message: fmt.Sprintf("rollback %s/%s: template of %s (revision %s) copied into the deployment",
			d.Namespace, d.Name, rs.Name, rs.Annotations[deployutil.RevisionAnnotation])})
	} else {
		dc.eventf(d, corev1.EventTypeWarning, ReasonRollbackTemplateUnchanged, "The rollback revision contains the same template as current deployment %q", d.Name)
	}
	return performed, dc.clearRollbackAndUpdate(d)
}

// setAnnotationsFromReplicaSet replaces d's annotations with rs's, except
// that the skip-list keys keep d's values (and rs's skip-list keys are not
// copied).
func setAnnotationsFromReplicaSet(d *appsv1.Deployment, rs *appsv1.ReplicaSet) {
	kept := map[string]string{}
	for _, k := range skipList {
		if v, ok := d.Annotations[k]; ok {
			kept[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !isSkipped(k) {
			kept[k] = v
		}
	}
	d.Annotations = kept
}

// skipList are the annotations never copied between a Deployment and its
// ReplicaSets (BEHAVIOR §4.9).
var skipList = []string{
	deployutil.LastAppliedConfigAnnotation,
	deployutil.RevisionAnnotation,
	deployutil.RevisionHistoryAnnotation,
	deployutil.DesiredReplicasAnnotation,
	deployutil.MaxReplicasAnnotation,
	deployutil.RollbackToAnnotation,
}

func isSkipped(key string) bool {
	for _, k := range skipList {
		if k == key {
			return true
		}
	}
	return false
}

// clearRollbackAndUpdate removes the rollback annotation and writes d with
// Update (cached resourceVersion, answer discarded).
func (dc *Controller) clearRollbackAndUpdate(d *appsv1.Deployment) error {
	delete(d.Annotations, deployutil.RollbackToAnnotation)
	return dc.writeDeployment(d)
}
