package sim

import (
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// TurnOrder is the policy that decides which controller syncs next when
// more than one has a ready key at the same virtual instant. In a real
// kube-controller-manager the controllers run concurrently, so their writes
// at one instant can interleave in several valid orders; a policy picks one
// of them, reproducibly.
type TurnOrder uint8

const (
	// TurnAlternate (the default): controllers take turns, the next one
	// after the controller that synced last (replicaset-controller first).
	// Its choices are not recorded: traces keep their historical form.
	TurnAlternate TurnOrder = iota
	// TurnDeploymentFirst: the deployment controller whenever it has a
	// ready key, else the next controller in alternation.
	TurnDeploymentFirst
	// TurnDrainQueue: the controller that synced last keeps the turn while
	// its queue has ready keys; then the next one with work takes over.
	TurnDrainQueue
	// TurnRandom: a uniform draw among the controllers with ready keys,
	// from the "turn-order" random stream of the seed.
	TurnRandom
)

var turnOrderNames = [...]string{
	TurnAlternate: "alternate", TurnDeploymentFirst: "deploymentFirst",
	TurnDrainQueue: "drainQueue", TurnRandom: "random",
}

// String returns the policy's name as written in scenario files.
func (t TurnOrder) String() string {
	if int(t) < len(turnOrderNames) {
		return turnOrderNames[t]
	}
	return "unknown"
}

// MarshalText renders the name in JSON.
func (t TurnOrder) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// ParseTurnOrder maps a policy name to its TurnOrder.
func ParseTurnOrder(name string) (TurnOrder, bool) {
	for t, n := range turnOrderNames {
		if n == name {
			return TurnOrder(t), true
		}
	}
	return 0, false
}

// TurnOrderNames lists the policy names, default first.
func TurnOrderNames() []string { return turnOrderNames[:] }

// TurnChoice is the trace record of one interleaving choice: at least two
// controllers had a ready key and the policy gave the turn to one of them.
// It is recorded for every such choice under a policy other than
// TurnAlternate.
type TurnChoice struct {
	// Policy is the TurnOrder's name.
	Policy string `json:"policy"`
	// Ready lists the controllers with a ready key, in alternation order
	// (the one after the controller that synced last first).
	Ready []string `json:"ready"`
	// Chosen is the controller that syncs in this step; one of Ready.
	Chosen string `json:"chosen"`
}

// Kind implements trace.Payload.
func (TurnChoice) Kind() trace.Kind { return trace.KindTurn }

// Text renders e.g. "deployment-controller takes the turn (ready:
// replicaset-controller, deployment-controller; policy deploymentFirst)".
func (c TurnChoice) Text() string {
	return c.Chosen + " takes the turn (ready: " + strings.Join(c.Ready, ", ") + "; policy " + c.Policy + ")"
}

// nextController returns the index in s.controllers of the controller that
// syncs in this step, applying the turn-order policy; at least one
// controller has a ready key. A choice among several is recorded unless the
// policy is the default alternation.
func (s *Sim) nextController() int {
	n := len(s.controllers)
	var buf [4]int // no allocation per sync step for the usual two controllers
	ready := buf[:0]
	for off := 1; off <= n; off++ {
		if i := (s.lastSynced + off) % n; s.controllers[i].queue.Len() > 0 {
			ready = append(ready, i)
		}
	}
	chosen := ready[0]
	switch s.opts.TurnOrder {
	case TurnDeploymentFirst:
		for _, i := range ready {
			if s.controllers[i].queue == s.dc.Queue() {
				chosen = i
			}
		}
	case TurnDrainQueue:
		if s.turnTaken && s.controllers[s.lastSynced].queue.Len() > 0 {
			chosen = s.lastSynced
		}
	case TurnRandom:
		chosen = ready[s.turns.Intn(len(ready))]
	}
	if s.opts.TurnOrder != TurnAlternate && len(ready) > 1 {
		c := TurnChoice{Policy: s.opts.TurnOrder.String(), Chosen: s.controllers[chosen].name}
		for _, i := range ready {
			c.Ready = append(c.Ready, s.controllers[i].name)
		}
		s.rec.Emit("sim", c)
	}
	return chosen
}
