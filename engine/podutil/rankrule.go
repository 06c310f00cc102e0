package podutil

// RankRule names the ranking rule that separated two pods, so that a trace
// can say why a victim was chosen before a survivor.
type RankRule uint8

const (
	// RuleTie means no rule separates the pods; the sort keeps whatever
	// order it reaches.
	RuleTie RankRule = iota
	// RuleUnscheduled (rule 1): a pod without a node goes first.
	RuleUnscheduled
	// RulePhase (rule 2): Pending, then Unknown, then Running.
	RulePhase
	// RuleNotReady (rule 3): a not-ready pod goes first.
	RuleNotReady
	// RuleDeletionCost (rule 4): the lower pod-deletion-cost goes first.
	RuleDeletionCost
	// RuleColocation (rule 5): the pod with more related pods on its node
	// goes first.
	RuleColocation
	// RuleReadyTime (rule 6): the pod in the more recent ready-time bucket
	// goes first (or a zero ready time).
	RuleReadyTime
	// RuleReadyTimeUID (rule 6): same ready-time bucket, lower UID first.
	RuleReadyTimeUID
	// RuleRestarts (rule 7): more regular-container restarts go first.
	RuleRestarts
	// RuleSidecarRestarts (rule 7): equal regular restarts, more sidecar
	// restarts go first.
	RuleSidecarRestarts
	// RuleCreationTime (rule 8): the pod in the more recent creation bucket
	// goes first (or a zero creation time).
	RuleCreationTime
	// RuleCreationTimeUID (rule 8): same creation bucket, lower UID first.
	RuleCreationTimeUID
)

var rankRuleNames = [...]string{
	RuleTie:             "tie",
	RuleUnscheduled:     "unscheduled",
	RulePhase:           "phase",
	RuleNotReady:        "not-ready",
	RuleDeletionCost:    "deletion-cost",
	RuleColocation:      "colocation",
	RuleReadyTime:       "ready-time",
	RuleReadyTimeUID:    "ready-time-uid",
	RuleRestarts:        "restarts",
	RuleSidecarRestarts: "sidecar-restarts",
	RuleCreationTime:    "creation-time",
	RuleCreationTimeUID: "creation-time-uid",
}

// String returns the rule's stable kebab-case name.
func (r RankRule) String() string {
	if int(r) < len(rankRuleNames) {
		return rankRuleNames[r]
	}
	return "unknown"
}

// MarshalText renders the rule by name in JSON traces.
func (r RankRule) MarshalText() ([]byte, error) { return []byte(r.String()), nil }
