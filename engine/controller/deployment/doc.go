// Package deployment is Rollout Lab's Deployment controller: a faithful
// re-implementation of kube-controller-manager v1.36.3's
// pkg/controller/deployment on the simulated cluster.
//
// One job: for every Deployment key taken from its workqueue, drive the
// Deployment's ReplicaSets towards spec (create the new ReplicaSet, scale new
// and old ones, roll back, clean up old revisions) and write the Deployment's
// status and conditions, exactly as upstream does.
//
// Contract:
//
//   - Single-threaded and deterministic: time comes from the virtual clock,
//     no goroutines, no randomness, no map order reaches a decision.
//   - Handlers only enqueue keys (BEHAVIOR §4.1). ProcessNextWorkItem runs one
//     whole worker iteration: Get, syncDeployment, handleErr, Done.
//   - Reads come from the informer caches, except where upstream reads live:
//     CanAdopt's GET during claiming, and the Recreate pod-delete handler's
//     LIST of ReplicaSets.
//   - Every write to a Deployment sends the sync's cached copy with the cached
//     resourceVersion and discards the server's answer, as upstream does. A
//     second Deployment write within one sync therefore fails with a real 409
//     Conflict and the key is retried with backoff (BEHAVIOR §4.3).
//   - All rollout arithmetic and planning comes from engine/deployutil; this
//     package executes the plans (one API Update per write, in order) and
//     records each plan's math record in the trace.
//   - Every sync is bracketed by SyncStarted and SyncFinished records; the
//     path taken, each scaling decision, revision, cleanup and condition
//     change is recorded in between (source "deployment-controller").
//   - Events go to the API server with component "deployment-controller" and
//     involvedObject the Deployment, with upstream's reasons and messages.
package deployment
