// Package sim wires the simulated control plane and both controllers into one
// deterministic simulation and drives it step by step.
//
// A Sim owns the virtual clock, the trace recorder, the API server, the
// garbage collector, one shared informer per resource, the ReplicaSet and
// Deployment controllers with their workqueues, and the pod lifecycle model.
// Like etcd-io/raft's RawNode, it has a tiny driving surface: Step performs
// exactly one event, and the run helpers (Settle, RunTo)
// are loops over Step with explicit limits.
//
// One event is one of: a scheduled action, one watch event delivered to an
// informer (cache updated, handlers run), one delayed workqueue item becoming
// ready, one controller sync (a whole processNextWorkItem), one
// garbage-collector item, or one kubelet/scheduler transition. When several
// are due at the same virtual instant they run in that order of kinds (so a
// write's watch event reaches the caches before the next sync); when nothing
// is due now the clock jumps to the earliest due time. Which controller syncs
// when several have a ready key at the same instant is the turn-order policy
// (Options.TurnOrder, turnorder.go): by default they take turns; the other
// policies (deployment controller first, drain each queue, seeded random)
// record every such choice in the trace as a TurnChoice. Syncs take no virtual time; worker counts are recorded but, since a
// sync is atomic here, do not change the order of events.
//
// Same options and seed, same sequence of Step calls: byte-identical trace.
//
// Checkpoint saves the whole simulation and Restore returns to it, exactly:
// each component saves its own mutable state (snapshot.go in its package),
// sharing what never changes (stored objects, trace records, actions). The
// session uses them to rewind without replaying from step 0.
package sim
