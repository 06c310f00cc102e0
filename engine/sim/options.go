package sim

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/controller/deployment"
	"github.com/rolloutlab/rolloutlab/engine/controller/replicaset"
	"github.com/rolloutlab/rolloutlab/engine/kubelet"
)

// Limits bound a simulation so that no input can hang it or exhaust memory.
// A run that passes one stops with an error naming it (ErrPodLimit,
// ErrStepLimit, ErrTraceLimit) and the scenario field that sets it, so
// that the user knows what to change; the front ends cap how high a
// scenario may set them (scenario.Ceilings).
type Limits struct {
	// MaxPods is the most pods that may exist at once.
	MaxPods int `json:"maxPods"`
	// MaxSteps is the most steps a simulation may take in total.
	MaxSteps int `json:"maxSteps"`
	// MaxTraceRecords is the most trace records a simulation may write;
	// 0 means no limit. The trace is most of a long run's memory.
	MaxTraceRecords int `json:"maxTraceRecords"`
	// SettleHorizon bounds Settle in virtual time: it stops once the clock
	// has moved this far past where it started, even if timers remain
	// (crash-looping containers restart forever).
	SettleHorizon time.Duration `json:"settleHorizon"`
}

// DefaultLimits returns the limits used when a scenario sets none.
func DefaultLimits() Limits {
	return Limits{MaxPods: 10000, MaxSteps: 1_000_000, MaxTraceRecords: 5_000_000, SettleHorizon: 30 * time.Minute}
}

// Options configure a simulation.
type Options struct {
	// Seed is the root of every random stream.
	Seed uint64
	// Start is virtual time zero (clock.Epoch when zero).
	Start time.Time
	// InformerLag is how long watch events take to reach the caches.
	InformerLag time.Duration
	// ReplicaSetWorkers and DeploymentWorkers mirror kube-controller-manager's
	// --concurrent-*-syncs (5 each); recorded, see the package doc.
	ReplicaSetWorkers, DeploymentWorkers int
	// Kubelet configures nodes and the pod lifecycle model.
	Kubelet kubelet.Config
	// TurnOrder decides which controller syncs next when several have work
	// at the same instant (default TurnAlternate).
	TurnOrder TurnOrder
	// ReplicaSet and Deployment configure the controllers.
	ReplicaSet replicaset.Config
	Deployment deployment.Config
	Limits     Limits
}

// DefaultOptions returns options for seed with every default filled in.
func DefaultOptions(seed uint64) Options {
	return Options{
		Seed:              seed,
		Start:             clock.Epoch,
		ReplicaSetWorkers: 5,
		DeploymentWorkers: 5,
		Kubelet:           kubelet.Defaults(),
		ReplicaSet:        replicaset.DefaultConfig(),
		Deployment:        deployment.DefaultConfig(),
		Limits:            DefaultLimits(),
	}
}
