// Package refmanager decides which dependents a controller owns in one sync:
// Kubernetes' ControllerRefManager (v1.36.3), for a ReplicaSet claiming pods
// and a Deployment claiming ReplicaSets.
//
// One job: given an owner, its selector and the candidate objects read from
// a cache, return the objects the owner controls after adopting matching
// orphans and releasing controlled objects that no longer match.
//
// Contract (BEHAVIOR §5):
//
//   - Controlled by another UID: ignored.
//   - Controlled by the owner and matching: claimed, even while the owner is
//     being deleted.
//   - Controlled by the owner and not matching: released (a strategic-merge
//     patch deleting the owner's reference), unless the owner is being
//     deleted, in which case it is simply not claimed.
//   - Orphan: adopted (a patch adding a controller reference with
//     blockOwnerDeletion) when the owner is not being deleted, the selector
//     matches, the object has no deletionTimestamp and the namespaces agree.
//     A successful adoption claims the object.
//   - Before the first adoption a Manager does one live GET of its owner
//     (CanAdopt); the answer, refusal or not, holds for every later adoption
//     of the same Manager. Make a new Manager for each sync.
//   - An adopt or release that fails with NotFound leaves the object
//     unclaimed and is not an error. Any other failure is collected and the
//     loop carries on; the call returns the claimed objects together with the
//     aggregated error.
//
// Claimed objects are the candidates as passed in (cached, shared, read-only):
// an adopted object is returned as it was before the patch, as upstream does.
//
// Every adoption and release attempt is recorded as a ClaimDecision
// (trace.KindDecision) naming owner, object, action, outcome and why; the
// CanAdopt check is recorded as a CanAdoptCheck. The caller decides whether
// to record the returned Summary.
package refmanager
