// Package engine is the root of Rollout Lab's simulation engine: the Kubernetes
// Deployment and ReplicaSet controllers (faithful to kube-controller-manager
// v1.36.3) running against a simulated, in-memory control plane.
//
// The engine is a pure, deterministic, single-threaded state machine. Nothing
// below this directory reads the wall clock, starts a goroutine, draws from a
// global random source, does I/O or touches JavaScript. Time is virtual
// (package clock), randomness comes from one seeded root with a derived stream
// per subsystem (package rng), and everything that happens is written to a
// typed trace (package trace). The same scenario and seed therefore produce a
// byte-identical trace natively and under js/wasm.
//
// Subpackages, bottom to top:
//
//	clock       virtual time
//	rng         seeded, per-subsystem random streams
//	trace       typed records of everything that happens
//	apiserver   in-memory API server: storage, validation, defaulting, watch log
//	gc          garbage collector acting through ownerReferences
//	informer    per-resource caches fed from the watch log with delivery lag
//	workqueue   client-go's queue semantics on virtual time
//	...         controllers, the pod lifecycle model and the simulator
package engine
