package expectations

import (
	"strconv"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Reason explains an expectations verdict.
type Reason string

const (
	// ReasonNoRecord: nothing is expected for the key; satisfied.
	ReasonNoRecord Reason = "no record"
	// ReasonFulfilled: every expected creation and deletion was observed
	// (add <= 0 and del <= 0); satisfied.
	ReasonFulfilled Reason = "fulfilled"
	// ReasonExpired: observations are still missing but the record is older
	// than Timeout; satisfied.
	ReasonExpired Reason = "expired"
	// ReasonPending: observations are missing and the record is fresh; not
	// satisfied, so the sync skips manageReplicas.
	ReasonPending Reason = "pending"
)

// String returns the reason as written in traces.
func (r Reason) String() string { return string(r) }

// ExpectationsCheck is the decision record of one SatisfiedExpectations call,
// emitted by the ReplicaSet controller at each sync.
type ExpectationsCheck struct {
	// Key is the ReplicaSet key "ns/name".
	Key       string `json:"key"`
	Satisfied bool   `json:"satisfied"`
	Reason    Reason `json:"reason"`
	// Add and Del are the counts still expected (0 without a record).
	Add int64 `json:"add"`
	Del int64 `json:"del"`
	// PendingKeys are the pod keys whose deletion is still expected, sorted.
	PendingKeys []string `json:"pendingKeys"`
}

var _ trace.Payload = ExpectationsCheck{}

// Kind implements trace.Payload.
func (ExpectationsCheck) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "expectations default/web: pending add=2 del=0 -> wait" or
// "expectations default/web: pending add=0 del=1 [default/web-x] -> wait".
func (c ExpectationsCheck) Text() string {
	var b strings.Builder
	b.WriteString("expectations ")
	b.WriteString(c.Key)
	b.WriteString(": ")
	b.WriteString(string(c.Reason))
	b.WriteString(" add=")
	b.WriteString(strconv.FormatInt(c.Add, 10))
	b.WriteString(" del=")
	b.WriteString(strconv.FormatInt(c.Del, 10))
	if len(c.PendingKeys) > 0 {
		b.WriteString(" [")
		b.WriteString(strings.Join(c.PendingKeys, " "))
		b.WriteString("]")
	}
	if c.Satisfied {
		b.WriteString(" -> sync")
	} else {
		b.WriteString(" -> wait")
	}
	return b.String()
}
