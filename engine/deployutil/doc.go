// Package deployutil is the Deployment controller's pure arithmetic: the
// rollout math, the plans of ReplicaSet writes each rollout step wants, and the
// status and condition logic, all faithful to kube-controller-manager v1.36.3.
//
// Contract:
//
//   - Every function is pure over *appsv1.Deployment, *appsv1.ReplicaSet and
//     an explicit now time.Time. Nothing here reads a clock, talks to an API
//     server, emits an event or starts a goroutine. Inputs are never mutated,
//     except where upstream sorts a caller's slice in place (FindNewReplicaSet,
//     FindOldReplicaSets, FindActiveOrLatest), which is documented on each.
//   - A planner (ReconcileNewReplicaSet, ReconcileOldReplicaSets, Scale,
//     CleanupDeployment) returns an ordered list of intended writes plus the
//     math that produced them. The controller executes the writes in order,
//     stops at the first failure and then does what the plan's ErrorPolicy
//     says, exactly as upstream does (see Plan.Run).
//   - Every math and decision record implements trace.Payload with
//     Kind() == trace.KindDecision and a one-line Text() that reads like the
//     formula and carries every number that went into it.
//   - Map iteration order never reaches an output: annotation maps are only
//     read by key, and every list is in an order upstream defines.
package deployutil
