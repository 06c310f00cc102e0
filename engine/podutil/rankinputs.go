package podutil

import (
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// RankInputs are what a deletion ranking reads from one pod apart from its
// UID, its node's rank and the ranking's instant, packed into numbers so
// that a cache can keep them with the pod (informer.Facts.Nums) and a
// ranking of many pods reads them instead of each pod's spec and status.
//
// Layout: [0] phase ordinal, [1] 1 when ready, [2] deletion cost,
// [3] ready-since and [4] creation time as Unix nanoseconds (zeroTime for
// a zero time), [5] regular restarts<<32 | sidecar restarts.
type RankInputs [6]int64

// zeroTime stands for a zero time.Time in RankInputs.
const zeroTime = math.MinInt64

// RankInputsOf packs p's ranking inputs.
func RankInputsOf(p *corev1.Pod) RankInputs {
	var in RankInputs
	in[0] = int64(phaseOrdinal(p.Status.Phase))
	if IsPodReady(p) {
		in[1] = 1
	}
	in[2] = int64(PodDeletionCost(p))
	in[3] = packTime(PodReadySince(p))
	in[4] = packTime(p.CreationTimestamp.Time)
	restarts, sidecar := maxRestarts(p)
	in[5] = int64(restarts)<<32 | int64(uint32(sidecar))
	return in
}

// rankKeyFrom is rankKeyOf(p, now) for a pod on node whose inputs are in;
// only the UID is read from p.
func rankKeyFrom(p *corev1.Pod, node string, in *RankInputs, now time.Time) rankKey {
	return rankKey{
		unscheduled: node == "",
		phase:       int(in[0]),
		ready:       in[1] == 1,
		cost:        int32(in[2]),
		readySince:  ageOf(now, unpackTime(in[3])),
		restarts:    int(in[5] >> 32),
		sidecar:     int(int32(uint32(in[5]))),
		created:     ageOf(now, unpackTime(in[4])),
		uid:         p.UID,
	}
}

// packTime is t as Unix nanoseconds, zeroTime for the zero time. Times
// the engine meets are within the int64 range of Unix nanoseconds.
func packTime(t time.Time) int64 {
	if t.IsZero() {
		return zeroTime
	}
	return t.UnixNano()
}

// unpackTime inverts packTime: the same instant, so Equal, After, Sub and
// IsZero answer as on the original.
func unpackTime(n int64) time.Time {
	if n == zeroTime {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// KnownRankInputs are candidates' ranking inputs read from a cache:
// Nodes[i] is the i-th candidate's spec.nodeName and Inputs[i] its
// RankInputsOf, aligned with the candidates passed with them.
type KnownRankInputs struct {
	Nodes  []string
	Inputs []RankInputs
}
