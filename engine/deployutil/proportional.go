package deployutil

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// ScalingEventMath records the isScalingEvent check.
type ScalingEventMath struct {
	// Replicas is the deployment's spec.replicas.
	Replicas int32 `json:"replicas"`
	// Checked are the active ReplicaSets in the order examined, with their
	// desired-replicas annotation ("" when missing or invalid: ignored).
	Checked []ScalingEventRow `json:"checked"`
	// Trigger is the first active ReplicaSet whose valid annotation differs
	// from Replicas; empty when this is not a scaling event.
	Trigger string `json:"trigger,omitempty"`
}

// ScalingEventRow is one active ReplicaSet examined by IsScalingEvent.
type ScalingEventRow struct {
	// Name is the ReplicaSet's name.
	Name string `json:"name"`
	// Desired is the desired-replicas annotation as written.
	Desired string `json:"desired"`
	// Valid is false when the annotation is missing or not an unsigned int32.
	Valid bool `json:"valid"`
}

// Kind implements trace.Payload.
func (ScalingEventMath) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (m ScalingEventMath) Text() string {
	parts := make([]string, len(m.Checked))
	for i, r := range m.Checked {
		if r.Valid {
			parts[i] = fmt.Sprintf("%s desired %s", r.Name, r.Desired)
		} else {
			parts[i] = fmt.Sprintf("%s desired %q ignored", r.Name, r.Desired)
		}
	}
	verdict := "no scaling event"
	if m.Trigger != "" {
		verdict = "scaling event (" + m.Trigger + ")"
	}
	return fmt.Sprintf("isScalingEvent: replicas %d; active: %s -> %s", m.Replicas, orNone(strings.Join(parts, ", ")), verdict)
}

// IsScalingEvent reports whether d.replicas changed since the controller
// last scaled: true when an active ReplicaSet (old or new, spec > 0) has a
// valid desired-replicas annotation different from d.replicas. A missing or
// invalid annotation is ignored. newRS may be nil.
func IsScalingEvent(d *appsv1.Deployment, newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) (bool, ScalingEventMath) {
	m := ScalingEventMath{Replicas: replicasOf(d)}
	for _, rs := range FilterActive(append(copyRSs(oldRSs), newRS)) {
		desired, ok := DesiredReplicasFromAnnotation(rs)
		m.Checked = append(m.Checked, ScalingEventRow{Name: rs.Name, Desired: rs.Annotations[DesiredReplicasAnnotation], Valid: ok})
		if ok && desired != m.Replicas {
			m.Trigger = rs.Name
			return true, m
		}
	}
	return false, m
}

// FindActiveOrLatest returns the one ReplicaSet to scale directly: the only
// active one (spec > 0) among newRS and oldRSs; when none is active, newRS,
// or without it the newest old ReplicaSet; nil when several are active (or
// there is nothing at all). Like upstream it sorts oldRSs in place, newest
// first.
func FindActiveOrLatest(newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	sort.Sort(sort.Reverse(byCreation(oldRSs)))
	active := FilterActive(append(copyRSs(oldRSs), newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return oldRSs[0]
	case 1:
		return active[0]
	}
	return nil
}

// IsSaturated reports whether rs (the new ReplicaSet) is fully rolled out:
// spec.replicas, the desired-replicas annotation and status.availableReplicas
// all equal d.replicas. The annotation is parsed like strconv.Atoi (a sign is
// accepted), as upstream does here. A nil rs is not saturated.
func IsSaturated(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.Annotations[DesiredReplicasAnnotation])
	if err != nil {
		return false
	}
	replicas := replicasOf(d)
	return rsReplicas(rs) == replicas && int32(desired) == replicas && rs.Status.AvailableReplicas == replicas
}

// Where the "before" size of a proportional fraction came from.
const (
	maxSourceAnnotation = "annotation"
	maxSourceStatus     = "status.replicas"
	maxSourceNone       = "none"
	maxSourceToZero     = "scale-to-zero"
)

// fractionMath explains one GetReplicaSetFraction computation.
type fractionMath struct {
	maxBefore int32
	source    string
	newMax    int32
	raw       float64
	fraction  int32
}

// GetReplicaSetFraction is the signed number of replicas proportional
// scaling would give rs if nothing capped it.
//
// If d.replicas is 0 it is -spec. Otherwise newMax = d.replicas + MaxSurge(d)
// and before = rs's max-replicas annotation; when that is missing, invalid or
// 0, before = d.status.replicas, and if that is 0 too the fraction is 0. The
// fraction is round(spec * newMax / before) - spec, rounding half away from
// zero.
//
// Worked examples:
//
//	spec 50, max-replicas 100, replicas 120, surge 0: round(50*120/100) - 50 = 60 - 50 = 10
//	spec 3,  max-replicas 6,   replicas 8,   surge 1: round(3*9/6 = 4.5) - 3 = 5 - 3 = 2
//	spec 5,  max-replicas 7,   replicas 3,   surge 0: round(5*3/7 = 2.14) - 5 = 2 - 5 = -3
//	spec 10, replicas 0:                                  -10
func GetReplicaSetFraction(rs *appsv1.ReplicaSet, d *appsv1.Deployment) int32 {
	return explainFraction(rs, d).fraction
}

func explainFraction(rs *appsv1.ReplicaSet, d *appsv1.Deployment) fractionMath {
	spec := rsReplicas(rs)
	replicas := replicasOf(d)
	if replicas == 0 {
		return fractionMath{source: maxSourceToZero, fraction: -spec}
	}
	f := fractionMath{newMax: replicas + MaxSurge(d), source: maxSourceAnnotation}
	before, ok := MaxReplicasFromAnnotation(rs)
	if !ok || before == 0 {
		before, f.source = d.Status.Replicas, maxSourceStatus
		if before == 0 {
			f.source = maxSourceNone
			return f
		}
	}
	f.maxBefore = before
	f.raw = float64(spec) * float64(f.newMax) / float64(before)
	f.fraction = int32(math.Round(f.raw)) - spec
	return f
}

// GetReplicaSetProportion is how many replicas rs gets of toAdd when added
// have already been handed out: 0 if rs is nil or has spec 0, or toAdd is 0
// or fully handed out; otherwise its fraction capped by what is left,
// min(fraction, toAdd-added) when scaling up, max(...) when scaling down.
//
// Worked example: replicas 20, rs spec 5 with max-replicas 10, toAdd 10,
// added 8: fraction round(5*20/10) - 5 = 5, capped min(5, 10-8) = 2.
func GetReplicaSetProportion(rs *appsv1.ReplicaSet, d *appsv1.Deployment, toAdd, added int32) int32 {
	if rs == nil || rsReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	return capProportion(GetReplicaSetFraction(rs, d), toAdd, added)
}

func capProportion(fraction, toAdd, added int32) int32 {
	if toAdd > 0 {
		return min(fraction, toAdd-added)
	}
	return max(fraction, toAdd-added)
}

// ProportionRow is one active ReplicaSet in a proportional scaling pass, in
// sorted order.
type ProportionRow struct {
	// Name is the ReplicaSet's name.
	Name string `json:"name"`
	// Spec is spec.replicas before.
	Spec int32 `json:"spec"`
	// MaxSource is where MaxBefore came from: "annotation" (max-replicas),
	// "status.replicas" (fallback), "none" (no base: fraction 0) or
	// "scale-to-zero" (d.replicas 0: fraction -spec). Empty when no fraction
	// was computed (spec 0, nothing to add, or nothing left).
	MaxSource string `json:"maxSource,omitempty"`
	// MaxBefore is the size the deployment had when rs was last scaled.
	MaxBefore int32 `json:"maxBefore"`
	// NewMax is d.replicas + maxSurge.
	NewMax int32 `json:"newMax"`
	// Raw is Spec*NewMax/MaxBefore before rounding, as a decimal with at
	// most three places.
	Raw string `json:"raw,omitempty"`
	// Fraction is round(Raw) - Spec (see GetReplicaSetFraction).
	Fraction int32 `json:"fraction"`
	// Allowed is toAdd - added at this row.
	Allowed int32 `json:"allowed"`
	// Proportion is Fraction capped by Allowed (0 when not computed).
	Proportion int32 `json:"proportion"`
	// NewSize is Spec + Proportion (+ the leftover for the first row,
	// floored at 0).
	NewSize int32 `json:"newSize"`
}

func (r ProportionRow) text(toAdd int32) string {
	var how string
	switch r.MaxSource {
	case "":
		how = "proportion 0"
	case maxSourceToZero:
		how = fmt.Sprintf("fraction -%d (scale to 0)", r.Spec)
	case maxSourceNone:
		how = "fraction 0 (no max-replicas, status.replicas 0)"
	default:
		how = fmt.Sprintf("fraction round(%d*%d/%d=%s)-%d = %+d", r.Spec, r.NewMax, r.MaxBefore, r.Raw, r.Spec, r.Fraction)
	}
	if r.MaxSource != "" {
		fn := "min"
		if toAdd < 0 {
			fn = "max"
		}
		how += fmt.Sprintf(", proportion %s(%+d, %+d) = %+d", fn, r.Fraction, r.Allowed, r.Proportion)
	}
	return fmt.Sprintf("%s %d: %s", r.Name, r.Spec, how)
}

// ProportionalMath records a proportional scaling pass.
type ProportionalMath struct {
	// Replicas is the deployment's spec.replicas.
	Replicas int32 `json:"replicas"`
	// MaxSurge is MaxSurge(d).
	MaxSurge int32 `json:"maxSurge"`
	// AllowedSize is Replicas + MaxSurge, or 0 when Replicas is 0.
	AllowedSize int32 `json:"allowedSize"`
	// Current is the sum of spec.replicas over the active ReplicaSets.
	Current int32 `json:"current"`
	// ToAdd is AllowedSize - Current (negative: remove).
	ToAdd int32 `json:"toAdd"`
	// Order describes the sort: "larger first, ties newer first" (adding),
	// "larger first, ties older first" (removing), or "as listed" (ToAdd 0).
	Order string `json:"order"`
	// Rows are the active ReplicaSets in sorted order.
	Rows []ProportionRow `json:"rows"`
	// Added is the sum of the proportions.
	Added int32 `json:"added"`
	// Leftover is ToAdd - Added, given to LeftoverTo.
	Leftover int32 `json:"leftover"`
	// LeftoverTo is the first ReplicaSet in sorted order ("" when ToAdd is 0).
	LeftoverTo string `json:"leftoverTo,omitempty"`
	// LeftoverClamped is true when the first row would have gone below 0.
	LeftoverClamped bool `json:"leftoverClamped,omitempty"`
}

// Text renders the pass on one line.
func (m ProportionalMath) Text() string {
	rows := make([]string, len(m.Rows))
	for i, r := range m.Rows {
		rows[i] = r.text(m.ToAdd) + fmt.Sprintf(" -> %d", r.NewSize)
	}
	allowed := fmt.Sprintf("allowed = replicas %d + maxSurge %d = %d", m.Replicas, m.MaxSurge, m.AllowedSize)
	if m.Replicas == 0 {
		allowed = "allowed = 0 (replicas 0)"
	}
	s := fmt.Sprintf("proportional: %s; current %d; toAdd %+d (%s): %s", allowed, m.Current, m.ToAdd, m.Order, strings.Join(rows, "; "))
	if m.LeftoverTo != "" {
		s += fmt.Sprintf("; leftover %+d -> %s", m.Leftover, m.LeftoverTo)
		if m.LeftoverClamped {
			s += " (floored at 0)"
		}
	}
	return s
}

// ScalePath is which branch of the scale step applied.
type ScalePath uint8

const (
	// ScaleNothing: there is no ReplicaSet at all, or several are active and
	// the strategy is not RollingUpdate; no writes.
	ScaleNothing ScalePath = iota + 1
	// ScaleActiveOrLatest: one ReplicaSet (FindActiveOrLatest) is set to
	// d.replicas with forceUpdate=false.
	ScaleActiveOrLatest
	// ScaleSaturated: the new ReplicaSet is saturated; every active old one
	// is set to 0 with forceUpdate=false.
	ScaleSaturated
	// ScaleProportional: replicas are spread over the active ReplicaSets in
	// proportion to their size; every one is written with forceUpdate=true.
	ScaleProportional
)

// String names the path.
func (p ScalePath) String() string {
	switch p {
	case ScaleNothing:
		return "nothing"
	case ScaleActiveOrLatest:
		return "active-or-latest"
	case ScaleSaturated:
		return "saturated"
	case ScaleProportional:
		return "proportional"
	}
	return "unknown"
}

// MarshalText renders the path as its String.
func (p ScalePath) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// ScaleMath records the scale decision.
type ScaleMath struct {
	// Path is the branch taken.
	Path ScalePath `json:"path"`
	// Replicas is the deployment's spec.replicas.
	Replicas int32 `json:"replicas"`
	// Target is the ReplicaSet FindActiveOrLatest chose (ScaleActiveOrLatest).
	Target string `json:"target,omitempty"`
	// TargetReplicas is Target's spec.replicas before.
	TargetReplicas int32 `json:"targetReplicas,omitempty"`
	// NewRS is the saturated new ReplicaSet (ScaleSaturated).
	NewRS string `json:"newRS,omitempty"`
	// Proportional is the math of a ScaleProportional pass.
	Proportional *ProportionalMath `json:"proportional,omitempty"`
}

// Kind implements trace.Payload.
func (ScaleMath) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (m ScaleMath) Text() string {
	switch m.Path {
	case ScaleActiveOrLatest:
		if m.TargetReplicas == m.Replicas {
			return fmt.Sprintf("scale: single active or latest RS %s already %d -> nothing to do", m.Target, m.Replicas)
		}
		return fmt.Sprintf("scale: single active or latest RS %s %d -> %d", m.Target, m.TargetReplicas, m.Replicas)
	case ScaleSaturated:
		return fmt.Sprintf("scale: new RS %s saturated (spec = desired annotation = available = %d) -> active old RSs to 0", m.NewRS, m.Replicas)
	case ScaleProportional:
		return "scale: " + m.Proportional.Text()
	}
	return "scale: several active RSs and strategy is not RollingUpdate -> nothing to do"
}

// ScalePlan is the plan of the scale step. OnError is ErrorReturn.
type ScalePlan struct {
	Plan
	// Math explains the decision.
	Math ScaleMath `json:"math"`
}

// Scale plans the scale step used on a scaling event and while paused.
//
//  1. FindActiveOrLatest (which sorts oldRSs in place, newest first, as
//     upstream does): if it yields one ReplicaSet, that one is set to
//     d.replicas (a write only if its size differs).
//  2. Otherwise, if the new ReplicaSet IsSaturated, every active old
//     ReplicaSet is set to 0.
//  3. Otherwise, for RollingUpdate only: allowed = d.replicas + MaxSurge (0
//     when d.replicas is 0), toAdd = allowed - Σspec(active). The active
//     ReplicaSets are sorted larger first, ties newer first when adding and
//     older first when removing; each gets spec + GetReplicaSetProportion,
//     and the first also gets the leftover toAdd - added, floored at 0. Every
//     active ReplicaSet whose size or desired/max annotations change is
//     written, in sorted order.
//
// Worked example (replicas 5 -> 10, surge 0, both RSs annotated max 5):
// foo-v1 3, foo-v2 2, toAdd +5: foo-v1 round(3*10/5)-3 = +3 -> 6, foo-v2
// round(2*10/5)-2 = +2 -> 4, leftover 0.
func Scale(d *appsv1.Deployment, newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) ScalePlan {
	replicas := replicasOf(d)
	maxSurge := MaxSurge(d)
	p := ScalePlan{Plan: Plan{OnError: ErrorReturn}, Math: ScaleMath{Replicas: replicas}}
	if target := FindActiveOrLatest(newRS, oldRSs); target != nil {
		p.Math.Path, p.Math.Target, p.Math.TargetReplicas = ScaleActiveOrLatest, target.Name, rsReplicas(target)
		if rsReplicas(target) != replicas {
			if w, ok := scaleWrite(target, replicas, d, maxSurge, ScaleOpNone, false); ok {
				p.Writes = append(p.Writes, w)
			}
		}
		p.Scaled = len(p.Writes) > 0
		return p
	}
	if IsSaturated(d, newRS) {
		p.Math.Path, p.Math.NewRS = ScaleSaturated, newRS.Name
		for _, rs := range FilterActive(oldRSs) {
			if w, ok := scaleWrite(rs, 0, d, maxSurge, ScaleOpNone, false); ok {
				p.Writes = append(p.Writes, w)
			}
		}
		p.Scaled = len(p.Writes) > 0
		return p
	}
	if !IsRollingUpdate(d) {
		p.Math.Path = ScaleNothing
		return p
	}
	p.Math.Path = ScaleProportional
	pm := &ProportionalMath{Replicas: replicas, MaxSurge: maxSurge}
	p.Math.Proportional = pm
	active := FilterActive(append(copyRSs(oldRSs), newRS))
	pm.Current = SpecReplicas(active)
	if replicas > 0 {
		pm.AllowedSize = replicas + maxSurge
	}
	pm.ToAdd = pm.AllowedSize - pm.Current
	op := ScaleOpNone
	switch {
	case pm.ToAdd > 0:
		sort.Sort(bySizeNewer(active))
		pm.Order, op = "larger first, ties newer first", ScaleOpUp
	case pm.ToAdd < 0:
		sort.Sort(bySizeOlder(active))
		pm.Order, op = "larger first, ties older first", ScaleOpDown
	default:
		pm.Order = "as listed"
	}
	for _, rs := range active {
		row := ProportionRow{Name: rs.Name, Spec: rsReplicas(rs), Allowed: pm.ToAdd - pm.Added}
		if row.Spec != 0 && pm.ToAdd != 0 && pm.ToAdd != pm.Added {
			f := explainFraction(rs, d)
			row.MaxSource, row.MaxBefore, row.NewMax, row.Fraction = f.source, f.maxBefore, f.newMax, f.fraction
			if f.maxBefore != 0 {
				row.Raw = formatDecimal(f.raw)
			}
			row.Proportion = capProportion(f.fraction, pm.ToAdd, pm.Added)
		}
		row.NewSize = row.Spec + row.Proportion
		pm.Added += row.Proportion
		pm.Rows = append(pm.Rows, row)
	}
	if pm.ToAdd != 0 && len(pm.Rows) > 0 {
		pm.Leftover, pm.LeftoverTo = pm.ToAdd-pm.Added, pm.Rows[0].Name
		pm.Rows[0].NewSize += pm.Leftover
		if pm.Rows[0].NewSize < 0 {
			pm.Rows[0].NewSize, pm.LeftoverClamped = 0, true
		}
	}
	for i, rs := range active {
		if w, ok := scaleWrite(rs, pm.Rows[i].NewSize, d, maxSurge, op, true); ok {
			p.Writes = append(p.Writes, w)
			p.Scaled = p.Scaled || w.SizeChanged
		}
	}
	return p
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
