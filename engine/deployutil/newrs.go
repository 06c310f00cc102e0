package deployutil

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// NewRSMath records how NewRSNewReplicas sized the new ReplicaSet.
type NewRSMath struct {
	// Strategy is the deployment strategy type.
	Strategy string `json:"strategy"`
	// Replicas is the deployment's spec.replicas.
	Replicas int32 `json:"replicas"`
	// MaxSurge is maxSurge rounded up. No fencepost rule applies here, so a
	// surge of 0 stays 0. Zero for Recreate.
	MaxSurge int32 `json:"maxSurge"`
	// MaxTotalPods is Replicas + MaxSurge.
	MaxTotalPods int32 `json:"maxTotalPods"`
	// CurrentPods is the sum of spec.replicas over allRSs.
	CurrentPods int32 `json:"currentPods"`
	// NewRSReplicas is the new ReplicaSet's spec.replicas before.
	NewRSReplicas int32 `json:"newRSReplicas"`
	// AtCapacity is CurrentPods >= MaxTotalPods: no room, the size stays.
	AtCapacity bool `json:"atCapacity"`
	// ScaleUpCount is min(MaxTotalPods-CurrentPods, Replicas-NewRSReplicas).
	ScaleUpCount int32 `json:"scaleUpCount"`
	// Result is the new ReplicaSet's intended spec.replicas.
	Result int32 `json:"result"`
	// Error is set when maxSurge cannot be resolved or the strategy is
	// unknown; Result is then 0.
	Error string `json:"error,omitempty"`
}

// Kind implements trace.Payload.
func (NewRSMath) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (m NewRSMath) Text() string {
	switch {
	case m.Error != "":
		return "NewRSNewReplicas: error: " + m.Error
	case m.Strategy != string(appsv1.RollingUpdateDeploymentStrategyType):
		return fmt.Sprintf("NewRSNewReplicas: strategy %s -> new RS = replicas %d", m.Strategy, m.Replicas)
	case m.AtCapacity:
		return fmt.Sprintf("NewRSNewReplicas: maxTotalPods = replicas %d + maxSurge %d = %d; current %d >= %d -> new RS stays %d",
			m.Replicas, m.MaxSurge, m.MaxTotalPods, m.CurrentPods, m.MaxTotalPods, m.Result)
	}
	return fmt.Sprintf("NewRSNewReplicas: maxTotalPods = replicas %d + maxSurge %d = %d; current %d; scale up min(%d-%d, %d-%d) = %d -> new RS %d",
		m.Replicas, m.MaxSurge, m.MaxTotalPods, m.CurrentPods,
		m.MaxTotalPods, m.CurrentPods, m.Replicas, m.NewRSReplicas, m.ScaleUpCount, m.Result)
}

// NewRSNewReplicas is the size the new ReplicaSet should have now.
//
// Recreate: d.replicas. RollingUpdate: with surge = maxSurge rounded up (no
// fencepost rule), maxTotal = d.replicas + surge and current = the sum of
// spec.replicas over allRSs. If current >= maxTotal the size stays; otherwise
// it grows by min(maxTotal - current, d.replicas - newRS.replicas). A nil
// maxSurge is an error here, as upstream (API defaulting always sets it).
//
// Worked examples (replicas 10, maxSurge 3):
//
//	old 10, new 0:  maxTotal 13, current 10, min(13-10, 10-0) = 3  -> 3
//	old 8,  new 0:  maxTotal 13, current 8,  min(13-8, 10-0)  = 5  -> 5
//	old 3,  new 8:  maxTotal 13, current 11, min(13-11, 10-8) = 2  -> 10
//	old 10, new 3:  current 13 >= 13                               -> stays 3
func NewRSNewReplicas(d *appsv1.Deployment, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) (int32, error) {
	m, err := ExplainNewRSNewReplicas(d, allRSs, newRS)
	return m.Result, err
}

// ExplainNewRSNewReplicas is NewRSNewReplicas returning its math record.
func ExplainNewRSNewReplicas(d *appsv1.Deployment, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) (NewRSMath, error) {
	m := NewRSMath{Strategy: string(d.Spec.Strategy.Type), Replicas: replicasOf(d), NewRSReplicas: rsReplicas(newRS)}
	switch d.Spec.Strategy.Type {
	case appsv1.RecreateDeploymentStrategyType:
		m.Result = m.Replicas
		return m, nil
	case appsv1.RollingUpdateDeploymentStrategyType:
	default:
		err := fmt.Errorf("%w: %q", ErrUnsupportedStrategy, d.Spec.Strategy.Type)
		m.Error = err.Error()
		return m, err
	}
	var surgeIn *intstr.IntOrString
	if d.Spec.Strategy.RollingUpdate != nil {
		surgeIn = d.Spec.Strategy.RollingUpdate.MaxSurge
	}
	surge, err := intstr.GetScaledValueFromIntOrPercent(surgeIn, int(m.Replicas), true)
	if err != nil {
		err = fmt.Errorf("%w: maxSurge: %v", ErrInvalidIntOrPercent, err)
		m.Error = err.Error()
		return m, err
	}
	m.MaxSurge = int32(surge)
	m.MaxTotalPods = m.Replicas + m.MaxSurge
	m.CurrentPods = SpecReplicas(allRSs)
	if m.CurrentPods >= m.MaxTotalPods {
		m.AtCapacity = true
		m.Result = m.NewRSReplicas
		return m, nil
	}
	m.ScaleUpCount = min(m.MaxTotalPods-m.CurrentPods, m.Replicas-m.NewRSReplicas)
	m.Result = m.NewRSReplicas + m.ScaleUpCount
	return m, nil
}

// ReconcileNewCase is which branch of reconcileNewReplicaSet applied.
type ReconcileNewCase uint8

const (
	// NewRSAtDesired: the new ReplicaSet already has d.replicas; no write.
	NewRSAtDesired ReconcileNewCase = iota + 1
	// NewRSAboveDesired: the new ReplicaSet is larger than d.replicas and is
	// scaled down to it.
	NewRSAboveDesired
	// NewRSBelowDesired: the new ReplicaSet is scaled to NewRSNewReplicas
	// (no write if that equals its current size).
	NewRSBelowDesired
)

// String names the case.
func (c ReconcileNewCase) String() string {
	switch c {
	case NewRSAtDesired:
		return "at-desired"
	case NewRSAboveDesired:
		return "above-desired"
	case NewRSBelowDesired:
		return "below-desired"
	}
	return "unknown"
}

// MarshalText renders the case as its String.
func (c ReconcileNewCase) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// ReconcileNewMath records the reconcileNewReplicaSet decision.
type ReconcileNewMath struct {
	// NewRS is the new ReplicaSet's name.
	NewRS string `json:"newRS"`
	// NewRSReplicas is its spec.replicas before.
	NewRSReplicas int32 `json:"newRSReplicas"`
	// Replicas is the deployment's spec.replicas.
	Replicas int32 `json:"replicas"`
	// Case is the branch taken.
	Case ReconcileNewCase `json:"case"`
	// Target is the intended size (NewRSReplicas when nothing changes).
	Target int32 `json:"target"`
	// Sizing is the NewRSNewReplicas math; set only for NewRSBelowDesired.
	Sizing *NewRSMath `json:"sizing,omitempty"`
}

// Kind implements trace.Payload.
func (ReconcileNewMath) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (m ReconcileNewMath) Text() string {
	switch m.Case {
	case NewRSAtDesired:
		return fmt.Sprintf("reconcileNewReplicaSet: new RS %s %d == replicas %d -> nothing to do", m.NewRS, m.NewRSReplicas, m.Replicas)
	case NewRSAboveDesired:
		return fmt.Sprintf("reconcileNewReplicaSet: new RS %s %d > replicas %d -> scale down to %d", m.NewRS, m.NewRSReplicas, m.Replicas, m.Target)
	}
	s := fmt.Sprintf("reconcileNewReplicaSet: new RS %s %d < replicas %d -> ", m.NewRS, m.NewRSReplicas, m.Replicas)
	if m.Sizing != nil {
		s += m.Sizing.Text()
	}
	return s
}

// NewRSPlan is the plan of reconcileNewReplicaSet: at most one write (with
// forceUpdate=false: only when the size changes, also refreshing the
// desired/max annotations). OnError is ErrorReturn.
type NewRSPlan struct {
	Plan
	// Math explains the decision.
	Math ReconcileNewMath `json:"math"`
}

// ReconcileNewReplicaSet plans the rolling update's scale-up step: nothing
// when the new ReplicaSet has d.replicas, a scale-down to d.replicas when it
// is larger, otherwise a scale to NewRSNewReplicas(d, allRSs, newRS). allRSs
// must include newRS. The returned error is NewRSNewReplicas's; the step then
// returns it without writing.
func ReconcileNewReplicaSet(d *appsv1.Deployment, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) (NewRSPlan, error) {
	replicas, cur := replicasOf(d), rsReplicas(newRS)
	p := NewRSPlan{Plan: Plan{OnError: ErrorReturn}}
	p.Math = ReconcileNewMath{NewRS: newRS.Name, NewRSReplicas: cur, Replicas: replicas, Target: cur}
	switch {
	case cur == replicas:
		p.Math.Case = NewRSAtDesired
		return p, nil
	case cur > replicas:
		p.Math.Case = NewRSAboveDesired
		p.Math.Target = replicas
	default:
		p.Math.Case = NewRSBelowDesired
		sizing, err := ExplainNewRSNewReplicas(d, allRSs, newRS)
		p.Math.Sizing = &sizing
		if err != nil {
			return p, err
		}
		p.Math.Target = sizing.Result
	}
	if w, ok := scaleWrite(newRS, p.Math.Target, d, MaxSurge(d), ScaleOpNone, false); ok {
		p.Writes = []RSWrite{w}
		p.Scaled = true
	}
	return p, nil
}
