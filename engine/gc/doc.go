// Package gc is Rollout Lab's garbage collector: the observable behaviour of
// kube-controller-manager's garbagecollector (BEHAVIOR §7.2–7.6) acting on
// the in-memory API server through ownerReferences.
//
// Contract:
//
//   - Observe reads the server's watch log from its own cursor (no lag) and
//     keeps a dependency graph: one node per observed object, plus "virtual"
//     nodes for owners named by an ownerReference but never observed.
//     Graph changes enqueue work exactly where upstream does: a deleted
//     object enqueues its dependents (and owners that wait in foreground);
//     a removed or unblocked ownerReference enqueues that owner; an object
//     that starts deletion with the "orphan" finalizer goes to
//     attemptToOrphan; one with "foregroundDeletion" is marked
//     deletingDependents and enqueued with all its dependents.
//   - Step processes exactly one queued item (attemptToDelete, which for an
//     owner in foreground deletion is processDeletingDependents, or
//     attemptToOrphan), talks to the API server as "garbage-collector", and
//     records what it decided as a KindGC trace record. A failed item is
//     retried after RetryDelay of virtual time.
//   - The queue is a FIFO with a dirty set: an item is never queued twice.
//     Nothing reads the wall clock; NextDue tells the simulator when the
//     earliest retry falls due.
package gc
