// Package expectations holds the two per-ReplicaSet bookkeeping stores the
// ReplicaSet controller consults before it acts, reproducing Kubernetes
// v1.36.3.
//
// Store is the controller's expectations: how many pod creations and
// deletions it still waits to observe per ReplicaSet key ("ns/name"), with
// deletions tracked by pod key so a pod is counted once. A sync runs
// manageReplicas only when the expectations are satisfied: no record,
// nothing pending, or the record set more than Timeout (5 minutes) ago on
// the virtual clock.
//
// ConsistencyStore is the stale-cache gate (StaleControllerConsistencyReplicaSet,
// on by default): per ReplicaSet it remembers the highest resourceVersion the
// controller wrote for pods and for replicasets.apps, and a sync fails fast
// until the informers have applied those writes.
//
// Contract: both stores are passive and deterministic. They read time only
// from the *clock.Clock they are given, emit nothing themselves (the
// controller emits ExpectationsCheck records), iterate in sorted order
// wherever order can reach an output, and are not safe for concurrent use
// (the engine is single-threaded).
package expectations
