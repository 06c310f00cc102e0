// Package apiserver is Rollout Lab's in-memory Kubernetes API server.
//
// It stores Pods, ReplicaSets, Deployments, Nodes and Events and applies the
// request semantics of a v1.36.3 kube-apiserver that the controllers can
// observe: apps/v1 and core/v1 defaulting, the validation errors a real
// server returns (same field paths and wording, as apimachinery StatusErrors),
// a global resourceVersion with optimistic concurrency, metadata.generation
// bookkeeping, graceful pod deletion, deletion propagation finalizers
// (Orphan, Foreground, Background), and the strategic-merge patches the
// controllers use to adopt and release dependents.
//
// Contract:
//
//   - Every write copies what it keeps of its input (a status write keeps
//     only metadata and status, a spec write only metadata and spec); the
//     caller keeps ownership of what it passed in. Successive stored versions
//     of an object may share unchanged spec or status memory, which is safe
//     because stored objects are immutable.
//   - Every returned object is the STORED POINTER. Callers must treat it as
//     read-only and DeepCopy it before changing anything. The server never
//     mutates a stored object in place: a write replaces the pointer, so an
//     object a caller (or the watch log) holds is a stable snapshot.
//   - Every change to a stored object appends exactly one WatchEvent to the
//     append-only watch log (Events objects excepted). Consumers keep their
//     own cursor, a position in the whole log, and read with WatchSince;
//     the owner of all consumers (the simulator) drops what every one of
//     them has read with ForgetWatchLog, so memory does not grow with
//     history.
//   - Every request that carries an actor (all writes) is recorded as one
//     trace record with source "apiserver". Reads take no actor and are not
//     recorded.
//   - Time comes from the virtual clock, UIDs and generated names from the
//     rng stream given to New: the same inputs give the same objects.
//
// Errors are *apierrors.StatusError values; test them with apierrors.IsNotFound,
// IsAlreadyExists, IsConflict and IsInvalid, as a client-go caller would.
package apiserver
