package deployutil

import (
	"fmt"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// ScaleDownRow is what one old ReplicaSet contributed to a scale-down
// sub-step.
type ScaleDownRow struct {
	// Name is the ReplicaSet's name.
	Name string `json:"name"`
	// Spec is spec.replicas before this sub-step.
	Spec int32 `json:"spec"`
	// Available is status.availableReplicas (never changed by a plan).
	Available int32 `json:"available"`
	// Removed is how many replicas this sub-step takes away (0 if skipped).
	Removed int32 `json:"removed"`
	// NewSize is Spec - Removed.
	NewSize int32 `json:"newSize"`
	// Skip says why nothing was removed: "spec 0", "all available".
	Skip string `json:"skip,omitempty"`
}

func (r ScaleDownRow) text() string {
	if r.Skip != "" {
		return fmt.Sprintf("%s skip (%s)", r.Name, r.Skip)
	}
	return fmt.Sprintf("%s %d->%d (-%d)", r.Name, r.Spec, r.NewSize, r.Removed)
}

func rowsText(rows []ScaleDownRow) string {
	if len(rows) == 0 {
		return "none"
	}
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = r.text()
	}
	return strings.Join(parts, ", ")
}

// UnhealthyCleanup is the result of CleanupUnhealthyReplicas.
type UnhealthyCleanup struct {
	// OldRSs are copies of the input, oldest first, with the planned writes
	// applied (status unchanged).
	OldRSs []*appsv1.ReplicaSet `json:"-"`
	// Writes are the ReplicaSet updates, in order.
	Writes []RSWrite `json:"writes"`
	// Rows are the ReplicaSets visited before the budget ran out, in order.
	Rows []ScaleDownRow `json:"rows"`
	// Count is the total number of replicas removed.
	Count int32 `json:"count"`
}

// CleanupUnhealthyReplicas plans the removal of unavailable replicas from old
// ReplicaSets, oldest first, within maxCleanupCount: each ReplicaSet with
// spec > 0 and spec != available loses min(budget left, spec - available).
// An old ReplicaSet with available > spec makes that count negative, which is
// an ErrInvalidScaleDown error; the writes planned before it are kept in the
// result (upstream has already issued them). The input is not modified.
//
// Worked example: budget 3, a (oldest) spec 3 available 1, b spec 4
// available 2 -> a 3->1 (-2), b 4->3 (-1), count 3.
func CleanupUnhealthyReplicas(d *appsv1.Deployment, oldRSs []*appsv1.ReplicaSet, maxCleanupCount int32) (UnhealthyCleanup, error) {
	maxSurge := MaxSurge(d)
	res := UnhealthyCleanup{OldRSs: copyRSs(oldRSs)}
	sort.Sort(byCreation(res.OldRSs))
	for i, rs := range res.OldRSs {
		if res.Count >= maxCleanupCount {
			break
		}
		spec, avail := rsReplicas(rs), rs.Status.AvailableReplicas
		row := ScaleDownRow{Name: rs.Name, Spec: spec, Available: avail, NewSize: spec}
		switch {
		case spec == 0:
			row.Skip = "spec 0"
		case spec == avail:
			row.Skip = "all available"
		}
		if row.Skip != "" {
			res.Rows = append(res.Rows, row)
			continue
		}
		remove := min(maxCleanupCount-res.Count, spec-avail)
		if spec-remove > spec {
			return res, fmt.Errorf("%w: when cleaning up unhealthy replicas, got invalid request to scale down %s %d -> %d",
				ErrInvalidScaleDown, rs.Name, spec, spec-remove)
		}
		row.Removed, row.NewSize = remove, spec-remove
		res.Rows = append(res.Rows, row)
		if w, ok := scaleWrite(rs, row.NewSize, d, maxSurge, ScaleOpNone, false); ok {
			res.Writes = append(res.Writes, w)
			res.OldRSs[i] = w.Apply(rs)
		}
		res.Count += remove
	}
	return res, nil
}

// OldScaleDown is the result of ScaleDownOldReplicaSetsForRollingUpdate.
type OldScaleDown struct {
	// MinAvailable is d.replicas - MaxUnavailable(d).
	MinAvailable int32 `json:"minAvailable"`
	// AvailablePods is the sum of status.availableReplicas over allRSs.
	AvailablePods int32 `json:"availablePods"`
	// Target is AvailablePods - MinAvailable, or 0 when that is <= 0.
	Target int32 `json:"target"`
	// Writes are the ReplicaSet updates, in order.
	Writes []RSWrite `json:"writes"`
	// Rows are the old ReplicaSets visited, oldest first.
	Rows []ScaleDownRow `json:"rows"`
	// Total is the number of replicas removed.
	Total int32 `json:"total"`
}

// ScaleDownOldReplicaSetsForRollingUpdate plans the removal of available old
// replicas while availability stays at or above MinAvailable. With
// available = the sum of status.availableReplicas over allRSs (the new
// ReplicaSet included), it removes available - minAvailable replicas from the
// old ReplicaSets oldest first, each capped at its spec. allRSs must hold the
// same objects as oldRSs (plus the new one). The inputs are not modified.
//
// Worked example: replicas 10, maxUnavailable 3, old1 (oldest) 2/2
// available, old2 3/3, new 8/8: available 13 - minAvailable 7 = 6 to remove
// -> old1 2->0, old2 3->0, total 5.
func ScaleDownOldReplicaSetsForRollingUpdate(d *appsv1.Deployment, allRSs, oldRSs []*appsv1.ReplicaSet) (OldScaleDown, error) {
	res := OldScaleDown{MinAvailable: replicasOf(d) - MaxUnavailable(d), AvailablePods: AvailableReplicas(allRSs)}
	if res.AvailablePods <= res.MinAvailable {
		return res, nil
	}
	res.Target = res.AvailablePods - res.MinAvailable
	maxSurge := MaxSurge(d)
	sorted := append([]*appsv1.ReplicaSet(nil), oldRSs...)
	sort.Sort(byCreation(sorted))
	for _, rs := range sorted {
		if res.Total >= res.Target {
			break
		}
		spec := rsReplicas(rs)
		row := ScaleDownRow{Name: rs.Name, Spec: spec, Available: rs.Status.AvailableReplicas, NewSize: spec}
		if spec == 0 {
			row.Skip = "spec 0"
			res.Rows = append(res.Rows, row)
			continue
		}
		remove := min(spec, res.Target-res.Total)
		if spec-remove > spec {
			return res, fmt.Errorf("%w: when scaling down old replica sets, got invalid request to scale down %s %d -> %d",
				ErrInvalidScaleDown, rs.Name, spec, spec-remove)
		}
		row.Removed, row.NewSize = remove, spec-remove
		res.Rows = append(res.Rows, row)
		if w, ok := scaleWrite(rs, row.NewSize, d, maxSurge, ScaleOpNone, false); ok {
			res.Writes = append(res.Writes, w)
		}
		res.Total += remove
	}
	return res, nil
}

// OldScaleDownMath records the whole reconcileOldReplicaSets decision.
type OldScaleDownMath struct {
	// OldPods is the sum of spec.replicas over the (active) old ReplicaSets.
	OldPods int32 `json:"oldPods"`
	// AllPods is the sum of spec.replicas over allRSs.
	AllPods int32 `json:"allPods"`
	// Replicas is the deployment's spec.replicas.
	Replicas int32 `json:"replicas"`
	// MaxUnavailable is MaxUnavailable(d).
	MaxUnavailable int32 `json:"maxUnavailable"`
	// MinAvailable is Replicas - MaxUnavailable.
	MinAvailable int32 `json:"minAvailable"`
	// NewRS is the new ReplicaSet's name.
	NewRS string `json:"newRS"`
	// NewRSReplicas is the new ReplicaSet's spec.replicas.
	NewRSReplicas int32 `json:"newRSReplicas"`
	// NewRSAvailable is the new ReplicaSet's status.availableReplicas.
	NewRSAvailable int32 `json:"newRSAvailable"`
	// NewRSUnavailable is NewRSReplicas - NewRSAvailable.
	NewRSUnavailable int32 `json:"newRSUnavailable"`
	// MaxScaledDown is AllPods - MinAvailable - NewRSUnavailable.
	MaxScaledDown int32 `json:"maxScaledDown"`
	// CleanedUnhealthy are the rows of the cleanupUnhealthyReplicas sub-step.
	CleanedUnhealthy []ScaleDownRow `json:"cleanedUnhealthy"`
	// CleanupCount is the number of unhealthy replicas removed.
	CleanupCount int32 `json:"cleanupCount"`
	// AvailablePods is the sum of status.availableReplicas over all
	// ReplicaSets (the new one included).
	AvailablePods int32 `json:"availablePods"`
	// ScaleDownTarget is AvailablePods - MinAvailable (0 when not positive).
	ScaleDownTarget int32 `json:"scaleDownTarget"`
	// ScaledDown are the rows of the scaleDownOldReplicaSetsForRollingUpdate
	// sub-step.
	ScaledDown []ScaleDownRow `json:"scaledDown"`
	// TotalScaledDown is CleanupCount + the replicas the second sub-step
	// removed.
	TotalScaledDown int32 `json:"totalScaledDown"`
	// Stopped names the early exit, if any: "no old pods",
	// "maxScaledDown <= 0", "error".
	Stopped string `json:"stopped,omitempty"`
	// Error is the text of a planning error that upstream swallows.
	Error string `json:"error,omitempty"`
}

// Kind implements trace.Payload.
func (OldScaleDownMath) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (m OldScaleDownMath) Text() string {
	if m.Stopped == "no old pods" {
		return "reconcileOldReplicaSets: old pods 0 -> nothing to scale down"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "reconcileOldReplicaSets: maxScaledDown = allPods %d - minAvailable (%d-%d=%d) - newRS unavailable (%d-%d=%d) = %d",
		m.AllPods, m.Replicas, m.MaxUnavailable, m.MinAvailable, m.NewRSReplicas, m.NewRSAvailable, m.NewRSUnavailable, m.MaxScaledDown)
	if m.Stopped == "maxScaledDown <= 0" {
		b.WriteString(" <= 0 -> no scale down")
		return b.String()
	}
	fmt.Fprintf(&b, "; cleanup unhealthy: %s [%d]", rowsText(m.CleanedUnhealthy), m.CleanupCount)
	if m.Error != "" {
		fmt.Fprintf(&b, "; error (swallowed): %s -> not scaled", m.Error)
		return b.String()
	}
	if m.ScaleDownTarget == 0 {
		fmt.Fprintf(&b, "; available %d <= minAvailable %d -> no further scale down", m.AvailablePods, m.MinAvailable)
	} else {
		fmt.Fprintf(&b, "; available %d - minAvailable %d = %d: %s", m.AvailablePods, m.MinAvailable, m.ScaleDownTarget, rowsText(m.ScaledDown))
	}
	fmt.Fprintf(&b, "; total %d", m.TotalScaledDown)
	return b.String()
}

// OldRSPlan is the plan of reconcileOldReplicaSets: the cleanup writes, then
// the scale-down writes (a ReplicaSet can appear in both; the second write
// applies to the object the first returned). OnError is ErrorSwallow.
type OldRSPlan struct {
	Plan
	// Math explains the decision.
	Math OldScaleDownMath `json:"math"`
}

// ReconcileOldReplicaSets plans the rolling update's scale-down step.
// allRSs are all old ReplicaSets plus newRS; oldRSs are the ones to scale
// (upstream passes the active old ReplicaSets).
//
// With oldPods = Σspec(oldRSs): nothing if 0. Otherwise
// maxScaledDown = Σspec(allRSs) - (d.replicas - MaxUnavailable) -
// (newRS.spec - newRS.available); nothing if <= 0. Then
// CleanupUnhealthyReplicas(oldRSs, maxScaledDown), then
// ScaleDownOldReplicaSetsForRollingUpdate over the updated old ReplicaSets
// plus newRS. Scaled is whether the two together removed anything. A planning
// error is swallowed as upstream does: the plan keeps the writes issued
// before it, reports not scaled and records the text in Math.Error.
//
// Worked example (replicas 10, maxSurge 3, maxUnavailable 2): old 10 with
// 10 available, new 3 with 0 available: maxScaledDown = 13 - 8 - 3 = 2, no
// unhealthy old replicas, available 10 - minAvailable 8 = 2 -> old 10->8.
func ReconcileOldReplicaSets(d *appsv1.Deployment, allRSs, oldRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) OldRSPlan {
	p := OldRSPlan{Plan: Plan{OnError: ErrorSwallow}}
	m := &p.Math
	m.OldPods = SpecReplicas(oldRSs)
	if m.OldPods == 0 {
		m.Stopped = "no old pods"
		return p
	}
	m.AllPods = SpecReplicas(allRSs)
	m.Replicas = replicasOf(d)
	m.MaxUnavailable = MaxUnavailable(d)
	m.MinAvailable = m.Replicas - m.MaxUnavailable
	m.NewRS = newRS.Name
	m.NewRSReplicas, m.NewRSAvailable = rsReplicas(newRS), newRS.Status.AvailableReplicas
	m.NewRSUnavailable = m.NewRSReplicas - m.NewRSAvailable
	m.MaxScaledDown = m.AllPods - m.MinAvailable - m.NewRSUnavailable
	if m.MaxScaledDown <= 0 {
		m.Stopped = "maxScaledDown <= 0"
		return p
	}

	cleanup, err := CleanupUnhealthyReplicas(d, oldRSs, m.MaxScaledDown)
	m.CleanedUnhealthy, m.CleanupCount = cleanup.Rows, cleanup.Count
	p.Writes = append(p.Writes, cleanup.Writes...)
	if err != nil {
		m.Stopped, m.Error = "error", err.Error()
		return p
	}

	all := append(append([]*appsv1.ReplicaSet(nil), cleanup.OldRSs...), newRS)
	down, err := ScaleDownOldReplicaSetsForRollingUpdate(d, all, cleanup.OldRSs)
	m.AvailablePods, m.ScaleDownTarget, m.ScaledDown = down.AvailablePods, down.Target, down.Rows
	p.Writes = append(p.Writes, down.Writes...)
	if err != nil {
		m.Stopped, m.Error = "error", err.Error()
		return p
	}
	m.TotalScaledDown = cleanup.Count + down.Total
	p.Scaled = m.TotalScaledDown > 0
	return p
}

// copyRSs returns a new slice holding the same pointers.
func copyRSs(rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	return append([]*appsv1.ReplicaSet(nil), rss...)
}
