package replicaset

import (
	"strconv"
	"strings"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// SyncStarted marks the start of one syncReplicaSet.
type SyncStarted struct {
	Key string `json:"key"`
	// Reasons are why the key was enqueued since its previous sync.
	Reasons []string `json:"reasons,omitempty"`
}

// Kind implements trace.Payload.
func (SyncStarted) Kind() trace.Kind { return trace.KindSync }

// Text implements trace.Payload, e.g.
// "sync default/web start (reasons: replicaset default/web added)".
func (s SyncStarted) Text() string {
	if len(s.Reasons) == 0 {
		return "sync " + s.Key + " start"
	}
	return "sync " + s.Key + " start (reasons: " + strings.Join(s.Reasons, "; ") + ")"
}

// SyncFinished marks the end of one syncReplicaSet and what the worker did
// with the key afterwards.
type SyncFinished struct {
	Key string `json:"key"`
	// OK is true when the sync returned no error (the key is forgotten).
	OK bool `json:"ok"`
	// Error is the sync error; the key was re-added rate-limited.
	Error string `json:"error,omitempty"`
	// Retry is the key's retry count after a failed sync.
	Retry int `json:"retry,omitempty"`
	// AvailabilityCheck is the delay of the availability requeue the sync
	// scheduled (0 when none).
	AvailabilityCheck time.Duration `json:"availabilityCheckNs,omitempty"`
}

// Kind implements trace.Payload.
func (SyncFinished) Kind() trace.Kind { return trace.KindSync }

// Text implements trace.Payload, e.g. "sync default/web done: ok" or
// `sync default/web done: error "..." -> rate-limited retry #1`.
func (s SyncFinished) Text() string {
	out := "sync " + s.Key + " done: "
	if !s.OK {
		return out + "error " + strconv.Quote(s.Error) + " -> rate-limited retry #" + strconv.Itoa(s.Retry)
	}
	out += "ok"
	if s.AvailabilityCheck > 0 {
		out += ", availability check in " + s.AvailabilityCheck.String()
	}
	return out
}

// StaleRefusal records a sync refused by the stale-cache gate: no lister
// read, no API call.
type StaleRefusal struct {
	Key string `json:"key"`
	// Error is the gate's error, upstream's text.
	Error string `json:"error"`
	// Skips is the value of replicaset_controller_stale_sync_skips_total
	// after this refusal.
	Skips int `json:"skips"`
}

// Kind implements trace.Payload.
func (StaleRefusal) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (s StaleRefusal) Text() string {
	return "stale cache: sync of " + s.Key + " refused: " + s.Error + " (stale skips " + strconv.Itoa(s.Skips) + ")"
}

// ManageAction is what manageReplicas decided.
type ManageAction uint8

const (
	// ManageNothing: the active pod count equals spec.replicas.
	ManageNothing ManageAction = iota + 1
	// ManageCreate: too few active pods; create the missing ones.
	ManageCreate
	// ManageDelete: too many active pods; delete the worst-ranked.
	ManageDelete
	// ManageSkipped: manageReplicas did not run (expectations pending or
	// ReplicaSet being deleted).
	ManageSkipped
)

// String returns "nothing", "create", "delete" or "skipped".
func (a ManageAction) String() string {
	switch a {
	case ManageNothing:
		return "nothing"
	case ManageCreate:
		return "create"
	case ManageDelete:
		return "delete"
	case ManageSkipped:
		return "skipped"
	}
	return "unknown"
}

// MarshalText renders the action by name in JSON.
func (a ManageAction) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// ManageDecision is manageReplicas' decision, recorded before it acts.
type ManageDecision struct {
	Key string `json:"key"`
	// Active is the number of active pods the ReplicaSet claimed.
	Active int `json:"active"`
	// Desired is spec.replicas.
	Desired int `json:"desired"`
	// Diff is Active - Desired.
	Diff   int          `json:"diff"`
	Action ManageAction `json:"action"`
	// Count is the number of pods to create or delete, capped at Burst.
	Count int `json:"count,omitempty"`
	// Burst is the cap, set only when it applied.
	Burst int `json:"burst,omitempty"`
	// Batches are the planned slow-start batch sizes of a create.
	Batches []int `json:"batches,omitempty"`
	// Why says why manageReplicas was skipped.
	Why string `json:"why,omitempty"`
}

// Kind implements trace.Payload.
func (ManageDecision) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "manage default/web: active 1, desired 2, diff -1 -> create 1 (slow start batches 1)".
func (d ManageDecision) Text() string {
	if d.Action == ManageSkipped {
		return "manage " + d.Key + ": skipped (" + d.Why + ")"
	}
	s := "manage " + d.Key + ": active " + strconv.Itoa(d.Active) + ", desired " + strconv.Itoa(d.Desired) +
		", diff " + strconv.Itoa(d.Diff) + " -> "
	switch d.Action {
	case ManageCreate:
		s += "create " + strconv.Itoa(d.Count)
	case ManageDelete:
		s += "delete " + strconv.Itoa(d.Count)
	default:
		return s + "nothing to do"
	}
	if d.Burst > 0 {
		s += " (capped by burst " + strconv.Itoa(d.Burst) + ")"
	}
	if len(d.Batches) > 0 {
		s += " (slow start batches " + joinInts(d.Batches) + ")"
	}
	return s
}

// ManageResult is what manageReplicas' creates or deletes achieved.
type ManageResult struct {
	Key    string       `json:"key"`
	Action ManageAction `json:"action"`
	// Planned is the number of pods the decision asked for.
	Planned int `json:"planned"`
	// Attempted is the number of requests sent.
	Attempted int `json:"attempted"`
	// Succeeded counts successful requests (a create refused because the
	// namespace is terminating counts, as upstream does).
	Succeeded int `json:"succeeded"`
	// Unexpected is the number of expectations lowered for pods that were
	// not created or not deleted.
	Unexpected int `json:"unexpected"`
	// Error is the error manageReplicas returns.
	Error string `json:"error,omitempty"`
}

// Kind implements trace.Payload.
func (ManageResult) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "manage default/web: create 3 of 3 succeeded".
func (r ManageResult) Text() string {
	s := "manage " + r.Key + ": " + r.Action.String() + " " + strconv.Itoa(r.Succeeded) + " of " +
		strconv.Itoa(r.Planned) + " succeeded"
	if r.Attempted != r.Planned {
		s += ", " + strconv.Itoa(r.Planned-r.Attempted) + " never attempted"
	}
	if r.Unexpected > 0 {
		s += ", expectations lowered by " + strconv.Itoa(r.Unexpected)
	}
	if r.Error != "" {
		s += ": " + r.Error
	}
	return s
}

// StatusOutcome is what happened to a status write.
type StatusOutcome uint8

const (
	// StatusWritten: UpdateStatus succeeded.
	StatusWritten StatusOutcome = iota + 1
	// StatusSkipped: nothing changed, no request was sent.
	StatusSkipped
	// StatusFailed: the write (or the GET before the retry) failed.
	StatusFailed
)

// String returns "written", "skipped" or "failed".
func (o StatusOutcome) String() string {
	switch o {
	case StatusWritten:
		return "written"
	case StatusSkipped:
		return "skipped"
	case StatusFailed:
		return "failed"
	}
	return "unknown"
}

// MarshalText renders the outcome by name in JSON.
func (o StatusOutcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// StatusWrite records the status step of a sync.
type StatusWrite struct {
	Key          string        `json:"key"`
	Outcome      StatusOutcome `json:"outcome"`
	Replicas     int32         `json:"replicas"`
	FullyLabeled int32         `json:"fullyLabeledReplicas"`
	Ready        int32         `json:"readyReplicas"`
	Available    int32         `json:"availableReplicas"`
	// Terminating is nil when the feature gate is off.
	Terminating *int32 `json:"terminatingReplicas,omitempty"`
	// ReplicaFailure is the ReplicaFailure condition's reason, "" when
	// absent.
	ReplicaFailure string `json:"replicaFailure,omitempty"`
	// Attempts is the number of UpdateStatus requests sent (0 when skipped).
	Attempts int `json:"attempts"`
	// RV is the ReplicaSet's resourceVersion after the step (the cached one
	// when skipped).
	RV    string `json:"rv,omitempty"`
	Error string `json:"error,omitempty"`
}

// Kind implements trace.Payload.
func (StatusWrite) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "status default/web: replicas 2, ready 1, available 1, terminating 0 -> written rv=12".
func (w StatusWrite) Text() string {
	s := "status " + w.Key + ": replicas " + strconv.Itoa(int(w.Replicas)) + ", ready " + strconv.Itoa(int(w.Ready)) +
		", available " + strconv.Itoa(int(w.Available))
	if w.Terminating != nil {
		s += ", terminating " + strconv.Itoa(int(*w.Terminating))
	}
	if w.ReplicaFailure != "" {
		s += ", ReplicaFailure " + w.ReplicaFailure
	}
	switch w.Outcome {
	case StatusSkipped:
		return s + " -> unchanged, write skipped"
	case StatusWritten:
		s += " -> written rv=" + w.RV
		if w.Attempts > 1 {
			s += " (after a GET and retry)"
		}
		return s
	}
	return s + " -> failed after " + strconv.Itoa(w.Attempts) + " attempt(s): " + w.Error
}

// Note is a message the controller reports without failing the sync
// (upstream's HandleError lines), e.g. the user error of two ReplicaSets
// selecting the same orphan.
type Note struct {
	// Key is the ReplicaSet or pod the message is about.
	Key     string `json:"key"`
	Message string `json:"message"`
}

// Kind implements trace.Payload.
func (Note) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (n Note) Text() string { return n.Key + ": " + n.Message }

var (
	_ trace.Payload = SyncStarted{}
	_ trace.Payload = SyncFinished{}
	_ trace.Payload = StaleRefusal{}
	_ trace.Payload = ManageDecision{}
	_ trace.Payload = ManageResult{}
	_ trace.Payload = StatusWrite{}
	_ trace.Payload = Note{}
)

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, " ")
}
