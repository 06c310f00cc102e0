package deployment

import (
	"fmt"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// source is the trace source, the API actor and the event component.
const source = "deployment-controller"

// SyncStarted marks the start of one syncDeployment.
type SyncStarted struct {
	// Key is "namespace/name".
	Key string `json:"key"`
	// Reasons are why the key was enqueued since its last sync.
	Reasons []string `json:"reasons"`
}

// Kind implements trace.Payload.
func (SyncStarted) Kind() trace.Kind { return trace.KindSync }

// Text implements trace.Payload, e.g. "sync default/web start (deployment updated)".
func (s SyncStarted) Text() string {
	r := "no reason"
	if len(s.Reasons) > 0 {
		r = strings.Join(s.Reasons, "; ")
	}
	return "sync " + s.Key + " start (" + r + ")"
}

// SyncResult is how a sync ended.
type SyncResult uint8

const (
	// ResultOK: the sync returned nil; the key's retries are forgotten.
	ResultOK SyncResult = iota + 1
	// ResultRetry: the sync failed and the key was re-added rate-limited.
	ResultRetry
	// ResultDropped: the sync failed after maxRetries requeues and the key
	// was forgotten (dropped out of the queue).
	ResultDropped
	// ResultNamespaceTerminating: the sync failed because the namespace is
	// terminating; the error is swallowed and the key forgotten.
	ResultNamespaceTerminating
)

// String names the result.
func (r SyncResult) String() string {
	switch r {
	case ResultOK:
		return "ok"
	case ResultRetry:
		return "retry"
	case ResultDropped:
		return "dropped"
	case ResultNamespaceTerminating:
		return "namespace-terminating"
	}
	return "unknown"
}

// MarshalText renders the result by name.
func (r SyncResult) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// SyncFinished marks the end of one syncDeployment and what handleErr did.
type SyncFinished struct {
	Key string `json:"key"`
	// Path is the branch syncDeployment took (see Path constants).
	Path string `json:"path"`
	// Result is what handleErr did with the outcome.
	Result SyncResult `json:"result"`
	// Error is the sync error text; empty on success.
	Error string `json:"error,omitempty"`
	// Requeues is the key's failure count after handleErr (0 after Forget).
	Requeues int `json:"requeues"`
}

// Kind implements trace.Payload.
func (SyncFinished) Kind() trace.Kind { return trace.KindSync }

// Text implements trace.Payload, e.g.
// "sync default/web end: retry (rolling) after 3 requeues: Operation cannot ...".
func (s SyncFinished) Text() string {
	t := fmt.Sprintf("sync %s end: %s", s.Key, s.Result)
	if s.Path != "" {
		t += " (" + s.Path + ")"
	}
	switch s.Result {
	case ResultRetry:
		t += fmt.Sprintf(", requeue %d", s.Requeues)
	case ResultDropped:
		t += fmt.Sprintf(", dropped after %d requeues", maxRetries)
	}
	if s.Error != "" {
		t += ": " + s.Error
	}
	return t
}

// Paths syncDeployment can take, in upstream's order of checks. They are
// the Path of PathDecision and SyncFinished records.
const (
	// PathNotFound: the Deployment is not in the cache (deleted); nothing to do.
	PathNotFound = "not-found"
	// PathSelectingAll: the selector is empty; warn and stop.
	PathSelectingAll = "selecting-all"
	// PathStatusOnly: the Deployment is being deleted; revision and status only.
	PathStatusOnly = "status-only"
	// PathPaused: spec.paused; scale and clean up, no rollout.
	PathPaused = "paused-sync"
	// PathRollback: the deprecated rollback annotation is set.
	PathRollback = "rollback"
	// PathScalingEvent: an active ReplicaSet's desired-replicas annotation
	// differs from spec.replicas; proportional scaling.
	PathScalingEvent = "scaling-event-sync"
	// PathRecreate: a Recreate rollout step.
	PathRecreate = "recreate"
	// PathRollingUpdate: a rolling update step.
	PathRollingUpdate = "rolling-update"
	// PathUnknown: any other strategy type; the sync fails.
	PathUnknown = "unknown-strategy"
)

// PathDecision records which branch syncDeployment took and why.
type PathDecision struct {
	Key  string `json:"key"`
	Path string `json:"path"`
	// Why explains the branch, e.g. "spec.paused is true" or "RS web-5d4
	// has desired-replicas 10 != 12".
	Why string `json:"why"`
}

// Kind implements trace.Payload.
func (PathDecision) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g. "default/web path paused-sync: spec.paused is true".
func (p PathDecision) Text() string { return p.Key + " path " + p.Path + ": " + p.Why }

// RevisionDecision records what getNewReplicaSet did about the new
// ReplicaSet and the revision bookkeeping.
type RevisionDecision struct {
	// Deployment is "namespace/name".
	Deployment string `json:"deployment"`
	// NewRS is the new ReplicaSet's name ("" when there is none).
	NewRS string `json:"newRS,omitempty"`
	// MaxOldRevision is the highest parseable revision of the old RSs.
	MaxOldRevision int64 `json:"maxOldRevision"`
	// NewRevision is MaxOldRevision+1 as written to a new or re-used RS.
	NewRevision string `json:"newRevision"`
	// Action is what happened: "found", "found: RS annotations updated",
	// "none (create=false)", "created", "adopted existing after AlreadyExists",
	// "hash collision", "create failed".
	Action string `json:"action"`
	// Detail carries numbers or the error for the action.
	Detail string `json:"detail,omitempty"`
}

// Kind implements trace.Payload.
func (RevisionDecision) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (r RevisionDecision) Text() string {
	t := fmt.Sprintf("new RS for %s: %s", r.Deployment, r.Action)
	if r.NewRS != "" {
		t += " " + r.NewRS
	}
	t += fmt.Sprintf(" (revision = max old %d + 1 = %s)", r.MaxOldRevision, r.NewRevision)
	if r.Detail != "" {
		t += "; " + r.Detail
	}
	return t
}

// ConditionChange records a Deployment condition set or removed in memory by
// this sync (written by the next status write).
type ConditionChange struct {
	Deployment string `json:"deployment"`
	Type       string `json:"type"`
	// From is "Status/Reason" before ("" when absent).
	From string `json:"from,omitempty"`
	// Status, Reason and Message are the new values ("" when removed).
	Status  string `json:"status,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// Kind implements trace.Payload.
func (ConditionChange) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "default/web condition Progressing: True/ReplicaSetUpdated -> Unknown/DeploymentPaused \"Deployment is paused\"".
func (c ConditionChange) Text() string {
	from := c.From
	if from == "" {
		from = "absent"
	}
	if c.Status == "" {
		return fmt.Sprintf("%s condition %s: %s -> removed", c.Deployment, c.Type, from)
	}
	return fmt.Sprintf("%s condition %s: %s -> %s/%s %q", c.Deployment, c.Type, from, c.Status, c.Reason, c.Message)
}

// StatusWrite records a Deployment status computation and whether it was
// written.
type StatusWrite struct {
	Deployment string `json:"deployment"`
	// Step is "syncDeploymentStatus" or "syncRolloutStatus".
	Step string `json:"step"`
	// Changed is false when the computed status deep-equals the cached one
	// (no write).
	Changed bool `json:"changed"`
	// Summary is "replicas/updated/ready/available/unavailable".
	Summary string `json:"summary"`
}

// Kind implements trace.Payload.
func (StatusWrite) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (s StatusWrite) Text() string {
	if !s.Changed {
		return fmt.Sprintf("%s %s: status unchanged (%s) -> no write", s.Step, s.Deployment, s.Summary)
	}
	return fmt.Sprintf("%s %s: status changed (%s) -> UpdateStatus", s.Step, s.Deployment, s.Summary)
}

// Note is a free-form controller remark (a handler that enqueued nothing,
// a skipped step).
type Note struct {
	Message string `json:"message"`
}

// Kind implements trace.Payload.
func (Note) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (n Note) Text() string { return n.Message }
