package podutil

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// DeletionCostAnnotation lets users bias which pods a scale-down removes:
// pods with a lower cost go first. It is honoured by ranking rule 4.
const DeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

// ErrInvalidDeletionCost is returned by ParseDeletionCost for a value that is
// not a canonical int32.
var ErrInvalidDeletionCost = errors.New("podutil: invalid pod deletion cost")

// ParseDeletionCost reads the deletion-cost annotation. A missing annotation
// is cost 0 with no error. A present value must be a canonical base-10 int32:
// no '+' sign, no leading zeros ("0" itself is fine), no spaces, and within
// [-2^31, 2^31-1]. A '-' sign is allowed, and after it the parser is lenient
// about leading zeros ("-01" is -1), as upstream is.
//
// Examples: "10" → 10; "-5" → -5; "0" → 0; "+10", "007", "", "2147483648"
// → ErrInvalidDeletionCost.
func ParseDeletionCost(annotations map[string]string) (int32, error) {
	v, ok := annotations[DeletionCostAnnotation]
	if !ok {
		return 0, nil
	}
	if !canonicalFirstDigit(v) {
		return 0, ErrInvalidDeletionCost
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, ErrInvalidDeletionCost
	}
	return int32(n), nil
}

// canonicalFirstDigit rejects an empty string, a leading '+', and a leading
// zero on anything but "0" itself.
func canonicalFirstDigit(v string) bool {
	if v == "" {
		return false
	}
	switch c := v[0]; {
	case c == '-':
		return true
	case c == '0':
		return v == "0"
	default:
		return c >= '1' && c <= '9'
	}
}

// PodDeletionCost is the cost used for ranking: the parsed annotation, or 0
// when it is missing or invalid.
func PodDeletionCost(pod *corev1.Pod) int32 {
	c, err := ParseDeletionCost(pod.Annotations)
	if err != nil {
		return 0
	}
	return c
}

// LogBucket returns floor(log2(now − t in nanoseconds)), or −1 when t is not
// before now. Rules 6 and 8 compare these buckets, so pods whose ages are
// within a factor of two of each other usually rank as equally old.
//
// Examples: 10s → 33; 100s → 36; 120s → 36; 5h → 44; 8h → 44; t == now → −1.
func LogBucket(now, t time.Time) int {
	d := now.Sub(t)
	if d <= 0 {
		return -1
	}
	// Upstream takes the log of the float64 value; keep the same arithmetic
	// so that durations just below a power of two land in the same bucket.
	return int(math.Log2(float64(d)))
}

// maxRestarts returns the highest restart count among regular containers and
// among sidecars (init containers whose restartPolicy is Always).
func maxRestarts(pod *corev1.Pod) (regular, sidecar int) {
	for _, st := range pod.Status.ContainerStatuses {
		regular = max(regular, int(st.RestartCount))
	}
	for _, c := range pod.Spec.InitContainers {
		if c.RestartPolicy == nil || *c.RestartPolicy != corev1.ContainerRestartPolicyAlways {
			continue
		}
		for _, st := range pod.Status.InitContainerStatuses {
			if st.Name == c.Name {
				sidecar = max(sidecar, int(st.RestartCount))
			}
		}
	}
	return regular, sidecar
}

// phaseOrdinal orders phases for deletion: Pending (and any unlisted phase)
// before Unknown before Running.
func phaseOrdinal(p corev1.PodPhase) int {
	switch p {
	case corev1.PodUnknown:
		return 1
	case corev1.PodRunning:
		return 2
	default:
		return 0
	}
}

// newerOrZeroFirst is the non-logarithmic time order: a zero time goes first;
// otherwise the later time goes first (age.newerOrZeroFirst).
func newerOrZeroFirst(ti, tj time.Time) bool {
	return ageOf(time.Time{}, ti).newerOrZeroFirst(ageOf(time.Time{}, tj))
}

// age is a time rules 6 and 8 compare, as its instant (packTime) with its
// LogBucket against the ranking's now (0 when either is zero: then the
// bucket is not used). 16 bytes, not a time.Time's 24 and an int: a sort
// moves the keys holding two of them at every swap.
type age struct {
	sec    int64
	nsec   int32
	bucket int32
}

// zeroSec is the Unix second of the zero time.Time.
const zeroSec = -62135596800

func ageOf(now, t time.Time) age {
	sec, nsec := packTime(t)
	a := age{sec: sec, nsec: int32(nsec)}
	if !now.IsZero() && !t.IsZero() {
		a.bucket = int32(LogBucket(now, t))
	}
	return a
}

// isZero reports whether a is the zero time's.
func (a age) isZero() bool { return a.sec == zeroSec && a.nsec == 0 }

// sameInstant reports whether a and b are the same instant.
func (a age) sameInstant(b age) bool { return a.sec == b.sec && a.nsec == b.nsec }

// newerOrZeroFirst reports whether a goes before b in the non-logarithmic
// time order: a zero time first; otherwise the later one first.
func (a age) newerOrZeroFirst(b age) bool {
	if a.isZero() || b.isZero() {
		return a.isZero()
	}
	return a.sec > b.sec || (a.sec == b.sec && a.nsec > b.nsec)
}

// compareAges applies the logarithmic "newer first" order of rules 6 and 8.
// decided is false when the two times are equal, letting later rules decide.
// Times in one bucket go by UID (uidRule; uidFirst says whether Pods[i]'s is
// the lower), and that decides for good: equal UIDs make the pods
// equivalent without consulting later rules.
func compareAges(now time.Time, ai, aj age, rule, uidRule RankRule, uidFirst bool) (r RankRule, iFirst, decided bool) {
	if ai.sameInstant(aj) {
		return RuleTie, false, false
	}
	if now.IsZero() || ai.isZero() || aj.isZero() {
		return rule, ai.newerOrZeroFirst(aj), true
	}
	diff := ai.bucket - aj.bucket
	if diff == 0 {
		return uidRule, uidFirst, true
	}
	return rule, diff < 0, true
}

// uidPrefix is the first 8 bytes of uid as a big-endian number, zero
// bytes past its end: of two UIDs whose prefixes differ, the lower prefix
// is the lexically lower UID; equal prefixes leave the order to the UIDs
// themselves (lowerUID).
func uidPrefix(uid types.UID) uint64 {
	var b [8]byte
	copy(b[:], uid)
	return binary.BigEndian.Uint64(b[:])
}

// ActivePodsWithRanks orders pods for deletion, most deletable first, with
// the eight rules of v1.36.3. It implements sort.Interface.
type ActivePodsWithRanks struct {
	// Pods are the candidates; Swap reorders this slice in place.
	Pods []*corev1.Pod
	// Rank[i] is the rank of Pods[i] (rule 5: the number of active related
	// pods on its node). Invariant: len(Rank) == len(Pods).
	Rank []int
	// Now is the reference instant for the logarithmic buckets of rules 6 and
	// 8. A zero Now falls back to plain "newer first" comparisons.
	Now time.Time
	// IgnoreDeletionCost models the PodDeletionCost feature gate turned off:
	// rule 4 is skipped. The controller leaves it false (gate on by default).
	IgnoreDeletionCost bool
	// keys, when set by withKeys, holds rankKeyOf(Pods[i], Now) at i, so that
	// a sort reads each pod once instead of at every comparison; Swap
	// keeps it aligned. Without it Compare reads the pods.
	keys []rankKey
}

// rankKey is what Compare reads from one pod.
// Fields are sized to keep it at 56 bytes (a sort swaps keys).
type rankKey struct {
	unscheduled, ready bool
	phase              uint8
	cost               int32
	restarts, sidecar  int32
	// readySince is PodReadySince (zero unless ready).
	readySince age
	created    age
	// uidPrefix is uidPrefix(UID): a ranking compares UIDs by it, and reads
	// the pods' UIDs only when two prefixes are equal, so that ranking
	// thousands of pods does not visit every pod.
	uidPrefix uint64
}

// rankKeyOf reads p's key; the ages' buckets are taken against now.
func rankKeyOf(p *corev1.Pod, now time.Time) rankKey {
	k := rankKey{
		unscheduled: p.Spec.NodeName == "",
		phase:       uint8(phaseOrdinal(p.Status.Phase)),
		ready:       IsPodReady(p),
		cost:        PodDeletionCost(p),
		readySince:  ageOf(now, PodReadySince(p)),
		created:     ageOf(now, p.CreationTimestamp.Time),
		uidPrefix:   uidPrefix(p.UID),
	}
	restarts, sidecar := maxRestarts(p)
	k.restarts, k.sidecar = int32(restarts), int32(sidecar)
	return k
}

// withKeys returns s with every pod's rank key computed once.
func (s ActivePodsWithRanks) withKeys() ActivePodsWithRanks {
	s.keys = make([]rankKey, len(s.Pods))
	for i, p := range s.Pods {
		s.keys[i] = rankKeyOf(p, s.Now)
	}
	return s
}

func (s ActivePodsWithRanks) key(i int) *rankKey {
	if s.keys != nil {
		return &s.keys[i]
	}
	k := rankKeyOf(s.Pods[i], s.Now)
	return &k
}

// Len implements sort.Interface.
func (s ActivePodsWithRanks) Len() int { return len(s.Pods) }

// Swap implements sort.Interface; it keeps Rank aligned with Pods.
func (s ActivePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
	if s.keys != nil {
		s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	}
}

// Less reports whether Pods[i] should be deleted before Pods[j].
func (s ActivePodsWithRanks) Less(i, j int) bool {
	_, iFirst := s.Compare(i, j)
	return iFirst
}

// Compare returns the first rule that separates Pods[i] from Pods[j] and
// whether it puts Pods[i] first. RuleTie means no rule separates them. A
// UID tie-break rule with iFirst false in both directions (equal UIDs) also
// means the pods are equivalent.
//
// The rules, first difference wins:
//  1. unscheduled before scheduled;
//  2. phase Pending < Unknown < Running;
//  3. not ready before ready;
//  4. lower deletion cost first;
//  5. higher rank (more related pods on the same node) first;
//  6. both ready: more recently ready first by log2 bucket, then lower UID;
//  7. higher max container restarts first, then higher sidecar restarts;
//  8. newer creation first by log2 bucket, then lower UID.
func (s ActivePodsWithRanks) Compare(i, j int) (rule RankRule, iFirst bool) {
	ki, kj := s.key(i), s.key(j)
	// 1. Unscheduled pods go first.
	if ki.unscheduled != kj.unscheduled {
		return RuleUnscheduled, ki.unscheduled
	}
	// 2. Pending < Unknown < Running.
	if ki.phase != kj.phase {
		return RulePhase, ki.phase < kj.phase
	}
	// 3. Not ready before ready.
	if ki.ready != kj.ready {
		return RuleNotReady, !ki.ready
	}
	// 4. Lower deletion cost first.
	if !s.IgnoreDeletionCost && ki.cost != kj.cost {
		return RuleDeletionCost, ki.cost < kj.cost
	}
	// 5. More co-located related pods first.
	if s.Rank[i] != s.Rank[j] {
		return RuleColocation, s.Rank[i] > s.Rank[j]
	}
	// 6. Both ready: the more recently ready goes first.
	if ki.ready && kj.ready {
		if r, first, ok := compareAges(s.Now, ki.readySince, kj.readySince, RuleReadyTime, RuleReadyTimeUID, s.lowerUID(i, j, ki, kj)); ok {
			return r, first
		}
	}
	// 7. More restarts first.
	if ki.restarts != kj.restarts {
		return RuleRestarts, ki.restarts > kj.restarts
	}
	if ki.sidecar != kj.sidecar {
		return RuleSidecarRestarts, ki.sidecar > kj.sidecar
	}
	// 8. Newer creation first.
	if r, first, ok := compareAges(s.Now, ki.created, kj.created, RuleCreationTime, RuleCreationTimeUID, s.lowerUID(i, j, ki, kj)); ok {
		return r, first
	}
	return RuleTie, false
}

// lowerUID reports whether Pods[i]'s UID is lexically lower than Pods[j]'s,
// from their keys' prefixes when those differ.
func (s ActivePodsWithRanks) lowerUID(i, j int, ki, kj *rankKey) bool {
	if ki.uidPrefix != kj.uidPrefix {
		return ki.uidPrefix < kj.uidPrefix
	}
	return s.Pods[i].UID < s.Pods[j].UID
}

func compareRestarts(pi, pj *corev1.Pod) (RankRule, bool, bool) {
	ri, si := maxRestarts(pi)
	rj, sj := maxRestarts(pj)
	if ri != rj {
		return RuleRestarts, ri > rj, true
	}
	if si != sj {
		return RuleSidecarRestarts, si > sj, true
	}
	return RuleTie, false, false
}

// ActivePods is the legacy deletion order without ranks, deletion cost or
// logarithmic buckets. It implements sort.Interface. Rules, first difference
// wins: unscheduled first; Pending < Unknown < Running; not ready first; both
// ready: zero ready time first, then the more recently ready; more restarts
// (then more sidecar restarts) first; zero creation time first, then newer.
type ActivePods []*corev1.Pod

// Len implements sort.Interface.
func (s ActivePods) Len() int { return len(s) }

// Swap implements sort.Interface.
func (s ActivePods) Swap(i, j int) { s[i], s[j] = s[j], s[i] }

// Less reports whether s[i] should be deleted before s[j].
func (s ActivePods) Less(i, j int) bool {
	pi, pj := s[i], s[j]
	if pi.Spec.NodeName != pj.Spec.NodeName && (pi.Spec.NodeName == "" || pj.Spec.NodeName == "") {
		return pi.Spec.NodeName == ""
	}
	if oi, oj := phaseOrdinal(pi.Status.Phase), phaseOrdinal(pj.Status.Phase); oi != oj {
		return oi < oj
	}
	readyI, readyJ := IsPodReady(pi), IsPodReady(pj)
	if readyI != readyJ {
		return !readyI
	}
	if readyI && readyJ {
		if ti, tj := PodReadySince(pi), PodReadySince(pj); !ti.Equal(tj) {
			return newerOrZeroFirst(ti, tj)
		}
	}
	if _, first, ok := compareRestarts(pi, pj); ok {
		return first
	}
	if ti, tj := pi.CreationTimestamp.Time, pj.CreationTimestamp.Time; !ti.Equal(tj) {
		return newerOrZeroFirst(ti, tj)
	}
	return false
}
