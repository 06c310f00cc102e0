// Package kubelet simulates the parts of a cluster that move pods through
// their lifecycle: the scheduler that binds pods to nodes, the kubelet that
// starts containers, runs readiness and liveness probes on the schedule of
// their fields (probes.go), restarts crashing containers and containers
// whose liveness probe fails, and terminates pods gracefully, and the node lifecycle controller that marks
// pods of a failed node NotReady and later evicts them.
//
// It is driven like every other engine component: Observe reads new pod
// events from the API server's watch log (the kubelet sees writes at once),
// NextDue says when the next transition is due, and Step performs exactly one
// due transition as an API write by "scheduler", "kubelet" or
// "node-controller". Every delay comes from the scenario's per-image profile
// plus seeded jitter from the "kubelet" random stream, so runs reproduce.
//
// A pod that appears already running (restored from pasted cluster output)
// is taken over where it is: ready pods stay ready, others continue as their
// image profile says (restore.go).
package kubelet
