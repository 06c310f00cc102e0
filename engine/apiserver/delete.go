package apiserver

import (
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Delete removes or marks for deletion the object res ns/name, following
// BEHAVIOR §7.1:
//
//   - The options are validated first (an unknown propagation policy, or
//     orphanDependents together with propagationPolicy: 422 Invalid
//     DeleteOptions), then preconditions (UID, resourceVersion) must hold,
//     else Conflict.
//   - Propagation: the legacy orphanDependents wins (true: Orphan, false:
//     Background), then propagationPolicy. An explicit Orphan adds the
//     "orphan" finalizer, Foreground adds "foregroundDeletion", Background
//     removes both; no option keeps whatever the object carries (the
//     apps/v1 and core/v1 default is Background, which adds nothing), so
//     an object's own "orphan" finalizer decides.
//   - Pods are deleted gracefully: deletionTimestamp = now + grace and the
//     pod stays (generation bumped) until a delete with grace 0. A later
//     delete may only shorten the grace period; one that does not is a
//     no-op that also leaves the finalizers alone.
//   - Without a grace period, an object with finalizers is marked
//     (deletionTimestamp = now, deletionGracePeriodSeconds = 0, generation
//     bumped on the first mark) and stays; without finalizers it is removed
//     at once.
func (s *Server) Delete(actor string, res Resource, ns, name string, opts DeleteOptions) error {
	if !res.Namespaced() {
		ns = ""
	}
	out, err := s.doDelete(res, ns, name, opts)
	s.record(actor, "delete", res, "", ns, name, out, 200, err)
	return err
}

func (s *Server) doDelete(res Resource, ns, name string, opts DeleteOptions) (Object, error) {
	st, ok := strategies[res]
	if !ok {
		return nil, apierrors.NewMethodNotSupported(res.GroupResource(), "delete")
	}
	if errs := validateDeleteOptions(opts); len(errs) > 0 {
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}, "", errs)
	}
	old, err := s.lookup(res, ns, name)
	if err != nil {
		return nil, err
	}
	if err := checkPreconditions(res, old, opts.Preconditions); err != nil {
		return nil, err
	}
	obj := copyShallow(old) // a deletion assigns metadata fields only
	now := s.clock.Now()

	graceful := false
	if st.gracePeriod != nil {
		var requested *int64
		if g := opts.GracePeriodSeconds; g != nil {
			v := *g
			if v < 0 {
				v = 1
			}
			requested = &v
		}
		if ts, cur := old.GetDeletionTimestamp(), old.GetDeletionGracePeriodSeconds(); ts != nil {
			if cur != nil && *cur > 0 {
				if requested == nil || *requested >= *cur {
					return old, nil // graceful deletion pending: nothing changes
				}
				if *requested > 0 {
					// Shorten: the new deadline counts from the first request.
					t := metav1.NewTime(ts.Add(time.Duration(*requested-*cur) * time.Second))
					obj.SetDeletionTimestamp(&t)
					obj.SetDeletionGracePeriodSeconds(requested)
					graceful = true
				}
			}
		} else if period := st.gracePeriod(obj, requested); period > 0 {
			t := metav1.NewTime(now.Add(time.Duration(period) * time.Second))
			obj.SetDeletionTimestamp(&t)
			obj.SetDeletionGracePeriodSeconds(&period)
			obj.SetGeneration(obj.GetGeneration() + 1)
			graceful = true
		}
	}
	if p, ok := opts.policy(); ok {
		obj.SetFinalizers(propagationFinalizers(obj.GetFinalizers(), p))
	}
	if !graceful {
		if len(obj.GetFinalizers()) == 0 {
			return s.erase(res, obj), nil
		}
		markAsDeleting(obj, now)
	}
	return s.commitDeletionMark(res, old, obj)
}

// commitDeletionMark stores a deletion mark (no validation: only
// server-managed fields and propagation finalizers changed).
func (s *Server) commitDeletionMark(res Resource, old, obj Object) (Object, error) {
	if sameObject(obj, old) {
		return old, nil
	}
	obj.SetResourceVersion(formatRV(s.nextRV()))
	return s.store(res, old, obj), nil
}

// validateDeleteOptions applies the API server's DeleteOptions validation
// (apimachinery's own, so paths, bad values and wording are upstream's).
// Options without a propagation policy, the controllers' and the kubelet's
// deletes, cannot fail it (the rules that remain concern dry-run and
// ignoreStoreReadError, which DeleteOptions does not carry) and skip it:
// it builds its field paths before knowing whether there is an error.
func validateDeleteOptions(opts DeleteOptions) field.ErrorList {
	if opts.PropagationPolicy == nil {
		return nil
	}
	return metav1validation.ValidateDeleteOptions(&metav1.DeleteOptions{
		PropagationPolicy: opts.PropagationPolicy,
		OrphanDependents:  opts.OrphanDependents, //nolint:staticcheck // the legacy field is what is being modelled
	})
}

// policy resolves the explicit propagation of validated options: the legacy
// orphanDependents first, then propagationPolicy; ok is false when neither
// is set (the object's finalizers, else the type default, decide).
func (o DeleteOptions) policy() (metav1.DeletionPropagation, bool) {
	switch {
	case o.OrphanDependents != nil && *o.OrphanDependents:
		return metav1.DeletePropagationOrphan, true
	case o.OrphanDependents != nil:
		return metav1.DeletePropagationBackground, true
	case o.PropagationPolicy != nil:
		return *o.PropagationPolicy, true
	}
	return "", false
}

// markAsDeleting records a deletion without grace period: deletionTimestamp
// now (an earlier one is kept), deletionGracePeriodSeconds 0, and the
// generation bumped the first time.
func markAsDeleting(obj Object, now time.Time) {
	ts := obj.GetDeletionTimestamp()
	if ts == nil && obj.GetGeneration() > 0 {
		obj.SetGeneration(obj.GetGeneration() + 1)
	}
	if ts == nil || ts.After(now) {
		t := metav1.NewTime(now)
		obj.SetDeletionTimestamp(&t)
	}
	zero := int64(0)
	obj.SetDeletionGracePeriodSeconds(&zero)
}

// propagationFinalizers returns fins adjusted for an explicit policy: the
// policy's finalizer is kept in place or appended, the other one dropped.
func propagationFinalizers(fins []string, p metav1.DeletionPropagation) []string {
	want := ""
	switch p {
	case metav1.DeletePropagationOrphan:
		want = metav1.FinalizerOrphanDependents
	case metav1.DeletePropagationForeground:
		want = metav1.FinalizerDeleteDependents
	}
	out := make([]string, 0, len(fins)+1)
	has := false
	for _, f := range fins {
		switch {
		case f == want:
			has = true
			out = append(out, f)
		case f == metav1.FinalizerOrphanDependents || f == metav1.FinalizerDeleteDependents:
		default:
			out = append(out, f)
		}
	}
	if want != "" && !has {
		out = append(out, want)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func checkPreconditions(res Resource, obj Object, pre *metav1.Preconditions) error {
	if pre == nil {
		return nil
	}
	if pre.UID != nil && *pre.UID != obj.GetUID() {
		return apierrors.NewConflict(res.GroupResource(), obj.GetName(),
			fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *pre.UID, obj.GetUID()))
	}
	if pre.ResourceVersion != nil && *pre.ResourceVersion != obj.GetResourceVersion() {
		return apierrors.NewConflict(res.GroupResource(), obj.GetName(),
			fmt.Errorf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *pre.ResourceVersion, obj.GetResourceVersion()))
	}
	return nil
}
