package podutil

import (
	"time"

	corev1 "k8s.io/api/core/v1"
)

// RankInputs are what a deletion ranking reads from one pod apart from its
// UID, its node's rank and the ranking's instant, packed into numbers so
// that a cache can keep them with the pod (informer.Facts.Nums) and a
// ranking of many pods reads them instead of each pod's spec and status.
//
// Layout: [0] phase ordinal | 4 when ready | deletion cost (32 bits) << 8;
// [1], [2] ready-since and [3], [4] creation time as Unix seconds and
// nanoseconds (any instant, the zero time included, round-trips);
// [5] regular restarts << 32 | sidecar restarts; [6] the UID's first
// bytes (uidPrefix, its bits as an int64).
type RankInputs [7]int64

// RankInputsOf packs p's ranking inputs.
func RankInputsOf(p *corev1.Pod) RankInputs {
	var in RankInputs
	in[0] = int64(phaseOrdinal(p.Status.Phase)) | int64(uint32(PodDeletionCost(p)))<<8
	if IsPodReady(p) {
		in[0] |= 4
	}
	in[1], in[2] = packTime(PodReadySince(p))
	in[3], in[4] = packTime(p.CreationTimestamp.Time)
	restarts, sidecar := maxRestarts(p)
	in[5] = int64(restarts)<<32 | int64(uint32(sidecar))
	in[6] = int64(uidPrefix(p.UID))
	return in
}

// rankKeyFrom is rankKeyOf(p, now) for a pod p on node whose inputs are
// in, without reading p (a ranking reads p's UID only to order two pods
// whose UIDs begin alike). ages remembers the last ages built against now,
// for the candidates that follow.
func rankKeyFrom(node string, in *RankInputs, now time.Time, ages *rankAges) rankKey {
	return rankKey{
		unscheduled: node == "",
		phase:       uint8(in[0] & 3),
		ready:       in[0]&4 != 0,
		cost:        int32(uint32(in[0] >> 8)),
		readySince:  ages.ready.of(now, in[1], in[2]),
		restarts:    int32(in[5] >> 32),
		sidecar:     int32(uint32(in[5])),
		created:     ages.created.of(now, in[3], in[4]),
		uidPrefix:   uint64(in[6]),
	}
}

// rankAges remembers the last ready and creation ages one ranking built.
// Pods are created and become ready in batches, so consecutive candidates
// often carry the same instants, and the age (a time and its logarithmic
// bucket against the ranking's now) is then the same value.
type rankAges struct {
	ready, created ageMemo
}

// ageMemo is the last age built, for the packed instant (sec, nsec).
type ageMemo struct {
	sec, nsec int64
	a         age
	// ok is false until the first age is built.
	ok bool
}

// of returns ageOf(now, unpackTime(sec, nsec)); now must be the same on
// every call.
func (m *ageMemo) of(now time.Time, sec, nsec int64) age {
	if !m.ok || m.sec != sec || m.nsec != nsec {
		m.sec, m.nsec, m.a, m.ok = sec, nsec, ageOf(now, unpackTime(sec, nsec)), true
	}
	return m.a
}

// packTime is t's instant as Unix seconds and nanoseconds.
func packTime(t time.Time) (sec, nsec int64) {
	return t.Unix(), int64(t.Nanosecond())
}

// unpackTime inverts packTime: the same instant (in UTC), so Equal, After,
// Sub and IsZero answer as on the original.
func unpackTime(sec, nsec int64) time.Time {
	return time.Unix(sec, nsec).UTC()
}

// KnownRankInputs are candidates' ranking inputs read from a cache:
// Nodes[i] is the i-th candidate's spec.nodeName and Inputs[i] its
// RankInputsOf, aligned with the candidates passed with them.
type KnownRankInputs struct {
	Nodes  []string
	Inputs []RankInputs
	// Scratch, when not nil, lends the ranking its per-candidate arrays
	// (ranks and keys), reused from one ranking to the next instead of
	// allocated for each: a scale-down of a large ReplicaSet ranks all its
	// pods, and a rollout does that many times.
	Scratch *RankScratch
}

// RankScratch holds the arrays of a ranking for reuse by the next one: only
// their capacity, the slices themselves stay empty, so a scratch looks the
// same whatever rankings it served. The ranking it served must be done with
// (its victims and record taken) before it serves another.
type RankScratch struct {
	rank []int
	keys []rankKey
}

// arrays returns rank and key arrays of length n, backed by s's when large
// enough. Every element is overwritten by the ranking.
func (s *RankScratch) arrays(n int) ([]int, []rankKey) {
	if s == nil {
		return make([]int, n), make([]rankKey, n)
	}
	if cap(s.rank) < n {
		s.rank = make([]int, 0, n)
		s.keys = make([]rankKey, 0, n)
	}
	return s.rank[:n], s.keys[:n]
}
