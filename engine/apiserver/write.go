package apiserver

import (
	"errors"
	"fmt"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// optimisticLockMessage is the detail of a Conflict on a stale update.
const optimisticLockMessage = "the object has been modified; please apply your changes to the latest version and try again"

// errResourceVersionSet is the storage error for a create that carries a
// resourceVersion.
var errResourceVersionSet = errors.New("resourceVersion should not be set on objects to be created")

// updateMode selects which part of an object a write may change.
type updateMode uint8

const (
	// modeUpdate is a PUT of the object: spec and metadata, not status.
	modeUpdate updateMode = iota
	// modeStatus is a PUT of the status subresource.
	modeStatus
	// modePatch is a server-side patch of metadata (adopt, release,
	// finalizer removal); no resourceVersion precondition.
	modePatch
)

// String names the mode as the trace shows it.
func (m updateMode) String() string {
	switch m {
	case modeStatus:
		return "update"
	case modePatch:
		return "patch"
	}
	return "update"
}

func (m updateMode) subresource() string {
	if m == modeStatus {
		return "/status"
	}
	return ""
}

// create stores a deep copy of in and returns the stored object.
func (s *Server) create(actor string, res Resource, in Object) (Object, error) {
	if isNil(in) {
		err := apierrors.NewBadRequest("no object in request body")
		s.record(actor, "create", res, "", "", "", nil, 0, err)
		return nil, err
	}
	out, err := s.doCreate(res, in, false)
	name := in.GetName()
	if out != nil {
		name = out.GetName()
	} else if name == "" {
		name = in.GetGenerateName()
	}
	s.record(actor, "create", res, "", s.namespaceOf(res, in), name, out, 201, err)
	return out, err
}

func (s *Server) namespaceOf(res Resource, obj Object) string {
	if res.Namespaced() && obj.GetNamespace() == "" {
		return metav1.NamespaceDefault
	}
	return obj.GetNamespace()
}

// doCreate stores a new object. restore keeps the state in carries (see
// Restore) instead of resetting it as a create does.
func (s *Server) doCreate(res Resource, in Object, restore bool) (Object, error) {
	st := strategies[res]
	var obj Object
	if p, ok := in.(*corev1.Pod); ok && !restore {
		obj = s.podShare.copyForCreate(p)
	} else {
		obj = in.DeepCopyObject().(Object)
	}
	obj.SetNamespace(s.namespaceOf(res, obj))
	if obj.GetResourceVersion() != "" {
		return nil, apierrors.NewInternalError(errResourceVersionSet)
	}
	obj.SetCreationTimestamp(metav1.NewTime(s.clock.Now()))
	obj.SetDeletionTimestamp(nil)
	obj.SetDeletionGracePeriodSeconds(nil)
	obj.SetUID("")
	st.prepareCreate(obj)
	if p, ok := obj.(*corev1.Pod); ok && !restore {
		// A restored pod is stored as it came: pasted from a cluster, it
		// was merged there; filled in for a pasted Deployment, set-up
		// merged it (scenario's runningPod).
		podutil.MergeAffinityLabelKeys(p)
	}
	generated := obj.GetName() == "" && obj.GetGenerateName() != ""
	for attempt := 0; ; attempt++ {
		if generated {
			obj.SetName(s.generateName(obj.GetGenerateName()))
		}
		if errs := st.validateCreate(obj); len(errs) > 0 {
			return nil, apierrors.NewInvalid(res.GroupKind(), obj.GetName(), errs)
		}
		if _, taken := s.find(res, obj.GetNamespace(), obj.GetName()); taken {
			if generated && attempt+1 < generateNameAttempts {
				continue
			}
			return nil, apierrors.NewAlreadyExists(res.GroupResource(), obj.GetName())
		}
		break
	}
	if restore {
		restoreState(obj, in)
	}
	obj.SetUID(s.newUID())
	obj.SetResourceVersion(formatRV(s.nextRV()))
	if p, ok := obj.(*corev1.Pod); ok {
		s.podShare.share(p)
	}
	stored := s.store(res, nil, obj)
	if p, ok := stored.(*corev1.Pod); ok {
		// The next pods share the stored pod's values: a replay stores
		// the first pass's version instead of obj (ReplayToward).
		s.podShare.remember(p)
	}
	return stored, nil
}

// update applies a PUT (mode modeUpdate or modeStatus) of in.
func (s *Server) update(actor string, res Resource, in Object, mode updateMode) (Object, error) {
	return s.updateBody(actor, res, in, mode, false)
}

// updateBody is update; owned says the caller hands in over, so that the
// server may store in itself instead of a copy (see UpdatePodStatusOwned).
func (s *Server) updateBody(actor string, res Resource, in Object, mode updateMode, owned bool) (Object, error) {
	if isNil(in) {
		err := apierrors.NewBadRequest("no object in request body")
		s.record(actor, mode.String(), res, mode.subresource(), "", "", nil, 0, err)
		return nil, err
	}
	ns := s.namespaceOf(res, in)
	out, err := s.doUpdate(res, ns, in, mode, owned)
	s.record(actor, mode.String(), res, mode.subresource(), ns, in.GetName(), out, 200, err)
	return out, err
}

func (s *Server) doUpdate(res Resource, ns string, in Object, mode updateMode, owned bool) (Object, error) {
	old, err := s.lookup(res, ns, in.GetName())
	if err != nil {
		return nil, err
	}
	if rv := in.GetResourceVersion(); rv != "" && rv != old.GetResourceVersion() {
		return nil, apierrors.NewConflict(res.GroupResource(), in.GetName(), errors.New(optimisticLockMessage))
	}
	if uid := in.GetUID(); uid != "" && uid != old.GetUID() {
		return nil, apierrors.NewConflict(res.GroupResource(), in.GetName(),
			fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", uid, old.GetUID()))
	}
	obj := in
	if !owned {
		obj = copyForWrite(in, mode)
	}
	obj.SetNamespace(ns)
	return s.commitUpdate(res, old, obj, mode)
}

// commitUpdate finishes a write of obj over old: server-managed metadata,
// the strategy, validation, no-op detection and deletion of an object whose
// last finalizer went away.
func (s *Server) commitUpdate(res Resource, old, obj Object, mode updateMode) (Object, error) {
	st := strategies[res]
	obj.SetUID(old.GetUID())
	obj.SetResourceVersion(old.GetResourceVersion())
	obj.SetCreationTimestamp(old.GetCreationTimestamp())
	obj.SetDeletionTimestamp(old.GetDeletionTimestamp())
	obj.SetDeletionGracePeriodSeconds(old.GetDeletionGracePeriodSeconds())
	obj.SetGenerateName(old.GetGenerateName())
	if mode == modeStatus {
		st.prepareStatus(obj, old)
		if errs := st.validateStatus(obj, old); len(errs) > 0 {
			return nil, apierrors.NewInvalid(res.GroupKind(), obj.GetName(), errs)
		}
	} else {
		st.prepareUpdate(obj, old)
		if errs := st.validateUpdate(obj, old); len(errs) > 0 {
			return nil, apierrors.NewInvalid(res.GroupKind(), obj.GetName(), errs)
		}
	}
	if unchanged(obj, old, mode) {
		return old, nil // a no-op write stores nothing and keeps the RV
	}
	if shouldDeleteDuringUpdate(obj) {
		return s.erase(res, obj), nil
	}
	obj.SetResourceVersion(formatRV(s.nextRV()))
	return s.store(res, old, obj), nil
}

// shouldDeleteDuringUpdate: an object marked for deletion whose finalizers
// are all gone, and whose grace period is over (0 or unset), is deleted by
// the write that removed the last finalizer.
func shouldDeleteDuringUpdate(obj Object) bool {
	if obj.GetDeletionTimestamp() == nil || len(obj.GetFinalizers()) > 0 {
		return false
	}
	g := obj.GetDeletionGracePeriodSeconds()
	return g == nil || *g == 0
}

// patch applies mutate to a copy of the stored object and commits it as a
// metadata write without a resourceVersion precondition. mutate may change
// metadata and assign top-level spec fields (BindPod); it must not edit
// slices or maps of the spec or status in place, which the copy shares with
// the stored object (see copyMeta). The defaulting prepareUpdate applies to
// the copy only fills unset fields, and stored specs are already defaulted,
// so it writes nothing into the shared parts either.
func (s *Server) patch(actor string, res Resource, ns, name string, mutate func(obj Object) error) (Object, error) {
	return s.patchCopy(actor, res, ns, name, copyMeta, mutate)
}

// patchCopy is patch starting from cp(stored object): copyShallow for a
// mutate that only assigns top-level fields and touches no metadata
// (BindPod), copyMeta otherwise.
func (s *Server) patchCopy(actor string, res Resource, ns, name string, cp func(Object) Object, mutate func(obj Object) error) (Object, error) {
	if !res.Namespaced() {
		ns = ""
	}
	out, err := s.doPatch(res, ns, name, cp, mutate)
	s.record(actor, "patch", res, "", ns, name, out, 200, err)
	return out, err
}

func (s *Server) doPatch(res Resource, ns, name string, cp func(Object) Object, mutate func(obj Object) error) (Object, error) {
	if _, ok := strategies[res]; !ok {
		return nil, apierrors.NewMethodNotSupported(res.GroupResource(), "patch")
	}
	old, err := s.lookup(res, ns, name)
	if err != nil {
		return nil, err
	}
	obj := cp(old) // mutate changes metadata and top-level fields only
	if err := mutate(obj); err != nil {
		return nil, err
	}
	// The patch may carry a uid (a precondition in disguise): it must
	// match, which validation checks as an immutable field.
	if obj.GetUID() != old.GetUID() {
		if errs := strategies[res].validateUpdate(obj, old); len(errs) > 0 {
			return nil, apierrors.NewInvalid(res.GroupKind(), name, errs)
		}
	}
	return s.commitUpdate(res, old, obj, modePatch)
}

// isNil reports whether o is nil or a typed nil pointer.
func isNil(o Object) bool {
	return o == nil || reflect.ValueOf(o).IsNil()
}

func sameObject(a, b Object) bool { return semanticEqual(a, b) }
