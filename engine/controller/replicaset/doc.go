// Package replicaset is the ReplicaSet controller of Kubernetes v1.36.3,
// running on the engine's virtual clock against the in-memory API server.
//
// One job: keep the number of active pods a ReplicaSet controls equal to
// spec.replicas, and report what it sees in the ReplicaSet's status.
//
// Shape (sample-controller): informer handlers only enqueue keys, with a
// reason, after resolving a pod's controller reference or matching an orphan
// against the cached ReplicaSets (BEHAVIOR §3.1). ProcessNextWorkItem is one
// whole worker iteration: Get, syncReplicaSet, Forget on success or
// AddRateLimited on error (no retry limit), Done.
//
// syncReplicaSet follows §3.3 step by step: the stale-cache gate (§3.8),
// the cache lookup, the expectations check, candidate pods from the owner
// index plus orphans, claiming through refmanager, terminating pods,
// manageReplicas (§3.4: slow-start creates, ranked deletes, burst 500),
// the status write with its skip rule and one GET+retry (§3.6), and the
// availability requeue at the exact moment the next pod becomes available.
// When no active pod it controls fails its selector and no active orphan
// matches it, the claim would change nothing: the sync then reads the claim
// summary, terminating count and status counts from the pod store's
// per-owner groups (tally.go), and lists the pods only for a scale-down or
// minReadySeconds; the records are the same as from the walk.
//
// Contract:
//
//   - Deterministic and single-threaded: upstream's concurrent creates and
//     deletes run one after another in a fixed order; time is the virtual
//     clock; nothing iterates a map into a decision or an output.
//   - Cached objects are never mutated; the controller deep-copies first.
//   - Every API request carries the actor "replicaset-controller"; Events go
//     through the API server with component "replicaset-controller" and the
//     ReplicaSet as involvedObject.
//   - Everything the controller decides is recorded (source
//     "replicaset-controller"): sync start and end, stale-cache refusals,
//     the expectations check, the claim summary, adoptions and releases, the
//     manage decision, the deletion ranking, the status write or skip, and
//     the Events it records.
package replicaset
