package deployutil

import appsv1 "k8s.io/api/apps/v1"

// Sums over a list of ReplicaSets. Nil entries are skipped, as upstream does
// (allRSs is often oldRSs + a nil new ReplicaSet).

// sum adds field(rs) over the non-nil ReplicaSets.
func sum(rss []*appsv1.ReplicaSet, field func(*appsv1.ReplicaSet) int32) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += field(rs)
		}
	}
	return n
}

// SpecReplicas is the sum of spec.replicas.
func SpecReplicas(rss []*appsv1.ReplicaSet) int32 { return sum(rss, rsReplicas) }

// StatusReplicas is the sum of status.replicas.
func StatusReplicas(rss []*appsv1.ReplicaSet) int32 {
	return sum(rss, func(rs *appsv1.ReplicaSet) int32 { return rs.Status.Replicas })
}

// ReadyReplicas is the sum of status.readyReplicas.
func ReadyReplicas(rss []*appsv1.ReplicaSet) int32 {
	return sum(rss, func(rs *appsv1.ReplicaSet) int32 { return rs.Status.ReadyReplicas })
}

// AvailableReplicas is the sum of status.availableReplicas.
func AvailableReplicas(rss []*appsv1.ReplicaSet) int32 {
	return sum(rss, func(rs *appsv1.ReplicaSet) int32 { return rs.Status.AvailableReplicas })
}

// TerminatingReplicas is the sum of status.terminatingReplicas, or nil when
// some ReplicaSet does not report it. A ReplicaSet the ReplicaSet controller
// has never synced (observedGeneration 0) and that does not report it is
// skipped instead, so a fresh ReplicaSet does not make the total flap to nil.
func TerminatingReplicas(rss []*appsv1.ReplicaSet) *int32 {
	var n int32
	for _, rs := range rss {
		switch {
		case rs == nil:
		case rs.Status.TerminatingReplicas == nil && rs.Status.ObservedGeneration == 0:
		case rs.Status.TerminatingReplicas == nil:
			return nil
		default:
			n += *rs.Status.TerminatingReplicas
		}
	}
	return &n
}

// FilterActive returns the non-nil ReplicaSets with spec.replicas > 0, in
// order.
func FilterActive(rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	var out []*appsv1.ReplicaSet
	for _, rs := range rss {
		if rs != nil && rsReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}
