// Package check holds invariant checkers that watch a simulation from the
// outside, after every step, in the spirit of TigerBeetle's state checker.
// They read only API-server state and the step's trace records; they never
// share code paths with the controllers they judge.
//
// RollingChecker enforces the guarantees a rolling update gives, for a
// rollout that starts from a fully available Deployment:
//
//   - surge: active pods of the Deployment never exceed
//     replicas + maxSurge;
//   - availability: available pods never drop below
//     replicas - maxUnavailable, unless a pod failed on its own (a container
//     crashed, a node failed, someone other than the controllers deleted a
//     pod), which excuses the rest of that rollout.
//
// A rollout window opens when the pod template changes while the Deployment
// is fully available and closes when it is complete again, or when the
// Deployment is scaled, paused, switched to Recreate or deleted (those change
// the rules mid-flight). Incomplete reports Deployments that should have
// completed by the end of a run and did not.
package check
