package trace

// Kind classifies a record so that views can filter by it.
type Kind uint8

const (
	// KindAPI is a request to the in-memory API server and its outcome.
	KindAPI Kind = iota + 1
	// KindWatch is a watch event delivered to an informer (store updated,
	// handlers called).
	KindWatch
	// KindQueue is a workqueue operation: add, dedupe, get, done, delayed
	// add, rate-limited requeue, forget, drop.
	KindQueue
	// KindSync marks the start or end of one controller sync of one key.
	KindSync
	// KindDecision is a controller decision with its inputs: rollout math,
	// expectations, adoption and release, deletion ranking.
	KindDecision
	// KindKubelet is a pod lifecycle transition made by the simulated
	// scheduler or kubelet.
	KindKubelet
	// KindGC is a garbage-collector action.
	KindGC
	// KindEvent is a Kubernetes Event object recorded by a controller.
	KindEvent
	// KindAction is a scenario or user action (apply, scale, set image...).
	KindAction
	// KindSim is simulator bookkeeping: seed, limits, errors.
	KindSim
	// KindTurn is an interleaving choice: which of several controllers with
	// work at the same instant took the next turn, under a non-default
	// turn-order policy.
	KindTurn
)

var kindNames = [...]string{
	KindAPI:      "api",
	KindWatch:    "watch",
	KindQueue:    "queue",
	KindSync:     "sync",
	KindDecision: "decision",
	KindKubelet:  "kubelet",
	KindGC:       "gc",
	KindEvent:    "event",
	KindAction:   "action",
	KindSim:      "sim",
	KindTurn:     "turn",
}

// String returns the lower-case name used in text and JSON traces.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind is the inverse of String; ok is false for an unknown name.
func ParseKind(s string) (Kind, bool) {
	for k, n := range kindNames {
		if n == s && n != "" {
			return Kind(k), true
		}
	}
	return 0, false
}
