package deployutil

import (
	"fmt"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// ResolveFenceposts turns maxSurge and maxUnavailable into replica counts for
// desired replicas. A percent is scaled as percent*desired/100: maxSurge
// rounds up, maxUnavailable rounds down. An int passes through unchanged (no
// clamp); nil means 0. If both come out 0, unavailable becomes 1, so that a
// rollout can always make progress (the fencepost rule). A string without "%"
// is an error, and then both results are 0.
//
// Worked examples:
//
//	desired 10, 25%/25%:  surge ceil(2.5) = 3,  unavailable floor(2.5) = 2
//	desired 3,  25%/25%:  surge ceil(0.75) = 1, unavailable floor(0.75) = 0
//	desired 10, 39%/39%:  surge ceil(3.9) = 4,  unavailable floor(3.9) = 3
//	desired 10, 0/0:      surge 0, unavailable 0 -> fencepost rule -> 1
//	desired 0,  25%/25%:  surge ceil(0) = 0, unavailable floor(0) = 0 -> 1
//	desired 10, 5/20:     surge 5, unavailable 20 (ints are not clamped here)
//	desired 10, "5"/1:    error (a string must end in "%")
func ResolveFenceposts(maxSurge, maxUnavailable *intstr.IntOrString, desired int32) (surge, unavailable int32, err error) {
	m := resolveFenceposts(maxSurge, maxUnavailable, desired)
	if m.err != nil {
		return 0, 0, m.err
	}
	return m.Surge.Value, m.ResolvedUnavailable, nil
}

// MaxSurge is the surge of a RollingUpdate deployment (0 for any other
// strategy). It is not zeroed when replicas is 0: an int surge of 5 stays 5.
// A resolution error (rejected by API validation) counts as 0.
//
// Worked example: replicas 10, maxSurge 25% -> ceil(2.5) = 3.
func MaxSurge(d *appsv1.Deployment) int32 {
	return ExplainFenceposts(d).MaxSurge
}

// MaxUnavailable is the fencepost-resolved unavailability of a RollingUpdate
// deployment, clamped to replicas. It is 0 for any other strategy and when
// replicas is 0.
//
// Worked examples: replicas 10, 25%/25% -> 2; replicas 4, maxUnavailable 150%
// -> floor(6) = 6 clamped to 4; replicas 10, 0/0 -> fencepost rule -> 1.
func MaxUnavailable(d *appsv1.Deployment) int32 {
	return ExplainFenceposts(d).MaxUnavailable
}

// MinAvailable is replicas - MaxUnavailable for a RollingUpdate deployment
// and 0 for any other strategy.
//
// Worked example: replicas 4, 25%/25% -> 4 - floor(1) = 3.
func MinAvailable(d *appsv1.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	return replicasOf(d) - MaxUnavailable(d)
}

// IsRollingUpdate reports whether d uses the RollingUpdate strategy.
func IsRollingUpdate(d *appsv1.Deployment) bool {
	return d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType
}

// ResolvedValue is one side (surge or unavailable) of the fencepost math.
type ResolvedValue struct {
	// Input is the value as written: "25%", "3", or "unset" for nil.
	Input string `json:"input"`
	// IsPercent is true when Input ends in "%".
	IsPercent bool `json:"isPercent"`
	// Percent is the number before "%" (0 unless IsPercent).
	Percent int `json:"percent"`
	// Raw is percent*desired/100 before rounding, as a decimal ("2.5"); empty
	// unless IsPercent.
	Raw string `json:"raw,omitempty"`
	// Rounding is "up" for maxSurge and "down" for maxUnavailable.
	Rounding string `json:"rounding"`
	// Value is the resolved count (before the fencepost rule).
	Value int32 `json:"value"`
}

// text renders "25% of 10 = 2.5 round up -> 3", "3" or "unset -> 0".
func (v ResolvedValue) text(desired int32) string {
	switch {
	case v.IsPercent:
		return fmt.Sprintf("%s of %d = %s round %s -> %d", v.Input, desired, v.Raw, v.Rounding, v.Value)
	case v.Input == "unset":
		return "unset -> 0"
	default:
		return strconv.FormatInt(int64(v.Value), 10)
	}
}

// FencepostMath records how a deployment's maxSurge and maxUnavailable were
// resolved into counts.
type FencepostMath struct {
	// Strategy is the deployment strategy type.
	Strategy string `json:"strategy"`
	// Replicas is the deployment's spec.replicas (the desired count).
	Replicas int32 `json:"replicas"`
	// Resolved is false when the strategy is not RollingUpdate; then Surge and
	// Unavailable are zero values.
	Resolved bool `json:"resolved"`
	// Surge is the maxSurge side (rounds up).
	Surge ResolvedValue `json:"surge"`
	// Unavailable is the maxUnavailable side (rounds down).
	Unavailable ResolvedValue `json:"unavailable"`
	// FencepostRule is true when both sides resolved to 0 and unavailable was
	// set to 1.
	FencepostRule bool `json:"fencepostRule"`
	// ResolvedUnavailable is Unavailable.Value after the fencepost rule.
	ResolvedUnavailable int32 `json:"resolvedUnavailable"`
	// ZeroReplicas is true when replicas is 0, which forces MaxUnavailable 0.
	ZeroReplicas bool `json:"zeroReplicas"`
	// ClampedToReplicas is true when ResolvedUnavailable exceeded replicas
	// and MaxUnavailable was clamped to it.
	ClampedToReplicas bool `json:"clampedToReplicas"`
	// MaxSurge is MaxSurge(d).
	MaxSurge int32 `json:"maxSurge"`
	// MaxUnavailable is MaxUnavailable(d).
	MaxUnavailable int32 `json:"maxUnavailable"`
	// Error is the resolution error text (both results are then 0).
	Error string `json:"error,omitempty"`

	// err is the resolution error behind Error, kept so ResolveFenceposts
	// can return it wrapped; it is not part of the JSON record.
	err error
}

// Kind implements trace.Payload.
func (FencepostMath) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (m FencepostMath) Text() string {
	if !m.Resolved {
		return fmt.Sprintf("Fenceposts: strategy %s -> maxSurge 0, maxUnavailable 0", m.Strategy)
	}
	if m.Error != "" {
		return fmt.Sprintf("Fenceposts(replicas %d): error %s -> maxSurge 0, maxUnavailable 0", m.Replicas, m.Error)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Fenceposts(replicas %d): maxSurge %s; maxUnavailable %s", m.Replicas, m.Surge.text(m.Replicas), m.Unavailable.text(m.Replicas))
	if m.FencepostRule {
		b.WriteString("; both 0 -> unavailable 1 (fencepost rule)")
	}
	switch {
	case m.ZeroReplicas:
		b.WriteString("; replicas 0 -> maxUnavailable 0")
	case m.ClampedToReplicas:
		fmt.Fprintf(&b, "; unavailable %d clamped to replicas %d", m.ResolvedUnavailable, m.Replicas)
	}
	fmt.Fprintf(&b, " => maxSurge %d, maxUnavailable %d", m.MaxSurge, m.MaxUnavailable)
	return b.String()
}

// ExplainFenceposts resolves d's fenceposts and returns every number that
// went into MaxSurge(d) and MaxUnavailable(d).
func ExplainFenceposts(d *appsv1.Deployment) FencepostMath {
	replicas := replicasOf(d)
	if !IsRollingUpdate(d) {
		return FencepostMath{Strategy: string(d.Spec.Strategy.Type), Replicas: replicas}
	}
	var surge, unavail *intstr.IntOrString
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		surge, unavail = ru.MaxSurge, ru.MaxUnavailable
	}
	m := resolveFenceposts(surge, unavail, replicas)
	m.Strategy = string(d.Spec.Strategy.Type)
	if m.err != nil {
		return m
	}
	m.MaxSurge = m.Surge.Value
	switch {
	case replicas == 0:
		m.ZeroReplicas = true
	case m.ResolvedUnavailable > replicas:
		m.ClampedToReplicas = true
		m.MaxUnavailable = replicas
	default:
		m.MaxUnavailable = m.ResolvedUnavailable
	}
	return m
}

// resolveFenceposts does the shared resolution; m.err is set on failure.
func resolveFenceposts(maxSurge, maxUnavailable *intstr.IntOrString, desired int32) FencepostMath {
	m := FencepostMath{Replicas: desired, Resolved: true}
	var err error
	if m.Surge, err = resolveOne(maxSurge, desired, true); err == nil {
		m.Unavailable, err = resolveOne(maxUnavailable, desired, false)
	}
	if err != nil {
		m.err = err
		m.Error = err.Error()
		m.Surge, m.Unavailable = ResolvedValue{}, ResolvedValue{}
		return m
	}
	m.ResolvedUnavailable = m.Unavailable.Value
	if m.Surge.Value == 0 && m.Unavailable.Value == 0 {
		m.FencepostRule = true
		m.ResolvedUnavailable = 1
	}
	return m
}

// resolveOne scales one IntOrString; nil counts as the int 0. The count
// comes from apimachinery's own GetScaledValueFromIntOrPercent so parsing
// and rounding match upstream bit for bit; the other fields explain it.
func resolveOne(v *intstr.IntOrString, desired int32, roundUp bool) (ResolvedValue, error) {
	r := ResolvedValue{Input: "unset", Rounding: "down"}
	if roundUp {
		r.Rounding = "up"
	}
	val := intstr.FromInt32(0)
	if v != nil {
		val = *v
		r.Input = v.String()
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(&val, int(desired), roundUp)
	if err != nil {
		return ResolvedValue{}, fmt.Errorf("%w %q: %v", ErrInvalidIntOrPercent, r.Input, err)
	}
	r.Value = int32(n)
	if val.Type == intstr.String {
		// GetScaledValueFromIntOrPercent accepted it, so it is "<int>%".
		p, _ := strconv.Atoi(strings.TrimSuffix(val.StrVal, "%"))
		r.IsPercent, r.Percent = true, p
		r.Raw = formatDecimal(float64(p) * float64(desired) / 100)
	}
	return r, nil
}

// replicasOf is *d.Spec.Replicas, or 1 (the API default) when unset.
func replicasOf(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// rsReplicas is *rs.Spec.Replicas, or 1 (the API default) when unset.
func rsReplicas(rs *appsv1.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

// formatDecimal renders x with at most three decimals and no trailing zeros
// ("2.5", "1.333", "6"): a stable, readable unrounded value for the trace.
func formatDecimal(x float64) string {
	s := strconv.FormatFloat(x, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
