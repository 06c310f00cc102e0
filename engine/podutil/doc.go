// Package podutil holds the pure pod and ReplicaSet helpers that the
// ReplicaSet controller builds on, reproducing Kubernetes v1.36.3.
//
// Its one job: answer questions about pods and ReplicaSets without side
// effects. Which pods are active, ready or available at a given instant;
// which pods a scale-down deletes first and why; how slow-start batches a
// burst of creates; what status a ReplicaSet should report; who controls an
// object.
//
// Contract:
//   - Every function is deterministic. Time is always an explicit now
//     argument taken from the virtual clock; nothing here reads the wall
//     clock, draws random numbers or does I/O.
//   - Inputs are never mutated, except where a function says it reorders the
//     caller's slice (GetPodsToDelete reorders it in place, as upstream sorts it).
//   - Feature gates are at their v1.36 defaults: PodDeletionCost on,
//     LogarithmicScaleDown on (locked), DeploymentReplicaSetTerminatingReplicas
//     on.
package podutil
