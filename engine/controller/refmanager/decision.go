package refmanager

import (
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Action is what a Manager tried to do to one object.
type Action uint8

const (
	// ActionAdopt adds the owner's controller reference to an orphan.
	ActionAdopt Action = iota + 1
	// ActionRelease removes the owner's reference from an object that no
	// longer matches the selector.
	ActionRelease
)

// String returns "adopt" or "release".
func (a Action) String() string {
	switch a {
	case ActionAdopt:
		return "adopt"
	case ActionRelease:
		return "release"
	}
	return "unknown"
}

// MarshalText renders the action by name in JSON.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Outcome is how an adopt or release attempt ended.
type Outcome uint8

const (
	// OutcomeDone: the patch succeeded (a release answered 404 or 422 also
	// counts as done, as upstream treats those as success).
	OutcomeDone Outcome = iota + 1
	// OutcomeGone: the adopt patch answered NotFound; the object is not
	// claimed and no error is reported.
	OutcomeGone
	// OutcomeRefused: CanAdopt failed, so no patch was sent; the error is
	// reported.
	OutcomeRefused
	// OutcomeFailed: the patch failed with another error; the error is
	// reported and the remaining objects are still processed.
	OutcomeFailed
)

// String returns "done", "gone", "refused" or "failed".
func (o Outcome) String() string {
	switch o {
	case OutcomeDone:
		return "done"
	case OutcomeGone:
		return "gone"
	case OutcomeRefused:
		return "refused"
	case OutcomeFailed:
		return "failed"
	}
	return "unknown"
}

// MarshalText renders the outcome by name in JSON.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// ClaimDecision records one adopt or release attempt, so the UI can
// highlight adopted and released objects.
type ClaimDecision struct {
	// Owner is "Kind ns/name" of the claiming controller object.
	Owner string `json:"owner"`
	// Object is "Kind ns/name" of the dependent.
	Object string `json:"object"`
	// Action is adopt or release.
	Action Action `json:"action"`
	// Outcome says how the attempt ended.
	Outcome Outcome `json:"outcome"`
	// Why explains the decision, e.g. "labels env=dev no longer match
	// selector env=prod".
	Why string `json:"why"`
	// RV is the dependent's resourceVersion after a successful patch ("" if
	// none was returned).
	RV string `json:"rv,omitempty"`
	// Error is the error text for refused and failed attempts.
	Error string `json:"error,omitempty"`
}

var _ trace.Payload = ClaimDecision{}

// Kind implements trace.Payload.
func (ClaimDecision) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "ReplicaSet default/replicatest adopt Pod default/test: done (orphan labels env=prod match selector env=prod)".
func (d ClaimDecision) Text() string {
	s := d.Owner + " " + d.Action.String() + " " + d.Object + ": " + d.Outcome.String() + " (" + d.Why + ")"
	if d.Error != "" {
		s += ": " + d.Error
	}
	return s
}

// CanAdoptCheck records the one live GET of the owner a Manager makes
// before its first adoption.
type CanAdoptCheck struct {
	// Owner is "Kind ns/name".
	Owner string `json:"owner"`
	// Allowed is true when adoption may proceed.
	Allowed bool `json:"allowed"`
	// Error is the refusal, e.g. "can't recheck DeletionTimestamp: ...".
	Error string `json:"error,omitempty"`
}

var _ trace.Payload = CanAdoptCheck{}

// Kind implements trace.Payload.
func (CanAdoptCheck) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "can-adopt ReplicaSet default/web: live GET ok".
func (c CanAdoptCheck) Text() string {
	if c.Allowed {
		return "can-adopt " + c.Owner + ": live GET ok"
	}
	return "can-adopt " + c.Owner + ": refused: " + c.Error
}
