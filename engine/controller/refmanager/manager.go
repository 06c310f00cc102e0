package refmanager

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// Manager claims dependents for one owner during one sync. It is not
// reusable across syncs: its CanAdopt answer is cached for its lifetime.
type Manager struct {
	env Env
	// owner is the cached controller object (read-only).
	owner apiserver.Object
	// ownerRes is the owner's resource (replicasets or deployments).
	ownerRes apiserver.Resource
	// ownerName is "Kind ns/name", used in records.
	ownerName string
	// ref is the controller reference an adoption adds: apps/v1, the
	// owner's kind, name and UID, controller and blockOwnerDeletion true.
	ref metav1.OwnerReference
	// selector decides which objects belong to the owner.
	selector labels.Selector
	// canAdoptDone is set by the first adoption attempt; canAdoptErr is
	// its answer and holds for every later adoption.
	canAdoptDone bool
	canAdoptErr  error
}

// NewForReplicaSet returns a manager for rs claiming pods with selector.
func NewForReplicaSet(env Env, rs *appsv1.ReplicaSet, selector labels.Selector) *Manager {
	return newManager(env, rs, apiserver.ReplicaSets, selector)
}

// NewForDeployment returns a manager for d claiming ReplicaSets with
// selector.
func NewForDeployment(env Env, d *appsv1.Deployment, selector labels.Selector) *Manager {
	return newManager(env, d, apiserver.Deployments, selector)
}

func newManager(env Env, owner apiserver.Object, res apiserver.Resource, selector labels.Selector) *Manager {
	gvk := appsv1.SchemeGroupVersion.WithKind(res.Kind())
	return &Manager{
		env:       env,
		owner:     owner,
		ownerRes:  res,
		ownerName: describe(res.Kind(), owner),
		ref:       *podutil.NewControllerRef(owner, gvk),
		selector:  selector,
	}
}

// ClaimPods claims pods for a ReplicaSet (see the package contract). It
// returns the claimed pods in input order, the summary and the aggregated
// error of failed adoptions and releases.
func ClaimPods(env Env, rs *appsv1.ReplicaSet, selector labels.Selector, pods []*corev1.Pod) ([]*corev1.Pod, Summary, error) {
	return NewForReplicaSet(env, rs, selector).ClaimPods(pods)
}

// ClaimReplicaSets claims ReplicaSets for a Deployment, matching the
// selector against each ReplicaSet's labels.
func ClaimReplicaSets(env Env, d *appsv1.Deployment, selector labels.Selector, rss []*appsv1.ReplicaSet) ([]*appsv1.ReplicaSet, Summary, error) {
	return NewForDeployment(env, d, selector).ClaimReplicaSets(rss)
}

// ClaimPods claims pods for the manager's owner.
func (m *Manager) ClaimPods(pods []*corev1.Pod) ([]*corev1.Pod, Summary, error) {
	s := m.newSummary(len(pods))
	var claimed []*corev1.Pod
	var errs []error
	for _, p := range pods {
		ok, err := m.claim(p, apiserver.Pods, &s)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			claimed = append(claimed, p)
		}
	}
	s.Claimed = len(claimed)
	return claimed, s, utilerrors.NewAggregate(errs)
}

// ClaimReplicaSets claims ReplicaSets for the manager's owner.
func (m *Manager) ClaimReplicaSets(rss []*appsv1.ReplicaSet) ([]*appsv1.ReplicaSet, Summary, error) {
	s := m.newSummary(len(rss))
	var claimed []*appsv1.ReplicaSet
	var errs []error
	for _, rs := range rss {
		ok, err := m.claim(rs, apiserver.ReplicaSets, &s)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			claimed = append(claimed, rs)
		}
	}
	s.Claimed = len(claimed)
	return claimed, s, utilerrors.NewAggregate(errs)
}

func (m *Manager) newSummary(n int) Summary {
	return Summary{Owner: m.ownerName, Selector: m.selector.String(), Candidates: n}
}

// claim applies the §5.1 table to one object and reports whether the owner
// now controls it.
func (m *Manager) claim(obj apiserver.Object, res apiserver.Resource, s *Summary) (bool, error) {
	ownerDeleting := m.owner.GetDeletionTimestamp() != nil
	matches := m.selector.Matches(labels.Set(obj.GetLabels()))
	if ref := metav1.GetControllerOfNoCopy(obj); ref != nil {
		switch {
		case ref.UID != m.owner.GetUID():
			s.OtherOwner++
			return false, nil
		case matches:
			s.Kept++
			return true, nil
		case ownerDeleting:
			s.Skipped++
			return false, nil
		}
		return false, m.release(obj, res, s)
	}
	if ownerDeleting || !matches || obj.GetDeletionTimestamp() != nil ||
		(m.owner.GetNamespace() != "" && m.owner.GetNamespace() != obj.GetNamespace()) {
		s.Skipped++
		return false, nil
	}
	return m.adopt(obj, res, s)
}

// adopt runs CanAdopt (once per manager) and sends the adopt patch.
func (m *Manager) adopt(obj apiserver.Object, res apiserver.Resource, s *Summary) (bool, error) {
	d := ClaimDecision{
		Owner:  m.ownerName,
		Object: describe(res.Kind(), obj),
		Action: ActionAdopt,
		Why:    "orphan labels " + labelsText(obj.GetLabels()) + " match selector " + m.selector.String(),
	}
	if cause := m.canAdopt(); cause != nil {
		err := &AdoptRefusedError{Kind: res.Kind(), Namespace: obj.GetNamespace(), Name: obj.GetName(), UID: obj.GetUID(), Cause: cause}
		d.Outcome, d.Error = OutcomeRefused, err.Error()
		m.env.emit(d)
		s.Failed = append(s.Failed, obj.GetName())
		return false, err
	}
	patched, err := m.env.Client.AdoptObject(m.env.Actor, res, obj.GetNamespace(), obj.GetName(), obj.GetUID(), m.ref)
	switch {
	case err == nil:
		d.Outcome, d.RV = OutcomeDone, patched.GetResourceVersion()
		s.Adopted = append(s.Adopted, Change{Name: obj.GetName(), RV: d.RV})
		m.env.emit(d)
		return true, nil
	case apierrors.IsNotFound(err):
		d.Outcome, d.Error = OutcomeGone, err.Error()
		s.Skipped++
		m.env.emit(d)
		return false, nil
	}
	d.Outcome, d.Error = OutcomeFailed, err.Error()
	s.Failed = append(s.Failed, obj.GetName())
	m.env.emit(d)
	return false, err
}

// release sends the release patch. NotFound and Invalid answers count as
// released (the object is gone or no longer carries the reference).
func (m *Manager) release(obj apiserver.Object, res apiserver.Resource, s *Summary) error {
	d := ClaimDecision{
		Owner:  m.ownerName,
		Object: describe(res.Kind(), obj),
		Action: ActionRelease,
		Why:    "labels " + labelsText(obj.GetLabels()) + " no longer match selector " + m.selector.String(),
	}
	patched, err := m.env.Client.ReleaseObject(m.env.Actor, res, obj.GetNamespace(), obj.GetName(), obj.GetUID(), m.owner.GetUID())
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsInvalid(err) {
		d.Outcome, d.Error = OutcomeFailed, err.Error()
		s.Failed = append(s.Failed, obj.GetName())
		m.env.emit(d)
		return err
	}
	d.Outcome = OutcomeDone
	if err == nil && patched != nil {
		d.RV = patched.GetResourceVersion()
	} else {
		d.Error = err.Error()
	}
	s.Released = append(s.Released, Change{Name: obj.GetName(), RV: d.RV})
	m.env.emit(d)
	return nil
}

// describe renders "Kind ns/name".
func describe(kind string, obj metav1.Object) string {
	return kind + " " + obj.GetNamespace() + "/" + obj.GetName()
}

// labelsText renders a label set, "<none>" when empty.
func labelsText(l map[string]string) string {
	if len(l) == 0 {
		return "<none>"
	}
	return labels.Set(l).String()
}
