package podutil

import (
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// RankByRelatedPodsOnNode pairs each pod of podsToRank with its rank: the
// number of active pods in relatedPods on the same node name. Unscheduled
// pods share the "" bucket. relatedPods normally includes podsToRank.
//
// Example: related pods a,b on n1 and c on n2 (all active) give a pod on n1
// rank 2, a pod on n2 rank 1 and a pod on n3 rank 0.
func RankByRelatedPodsOnNode(podsToRank, relatedPods []*corev1.Pod, now time.Time) ActivePodsWithRanks {
	return RankByNodeCounts(podsToRank, ActivePerNode(relatedPods), now)
}

// ActivePerNode counts the active pods of pods per node name ("" for
// unscheduled pods): what a ranking reads from the related pods.
func ActivePerNode(pods []*corev1.Pod) map[string]int {
	perNode := make(map[string]int)
	for _, p := range pods {
		if IsPodActive(p) {
			perNode[p.Spec.NodeName]++
		}
	}
	return perNode
}

// RankByNodeCounts is RankByRelatedPodsOnNode from the related pods'
// ActivePerNode counts.
func RankByNodeCounts(podsToRank []*corev1.Pod, perNode map[string]int, now time.Time) ActivePodsWithRanks {
	ranks := make([]int, len(podsToRank))
	for i, p := range podsToRank {
		ranks[i] = perNode[p.Spec.NodeName]
	}
	return ActivePodsWithRanks{Pods: podsToRank, Rank: ranks, Now: now}
}

// GetPodsToDelete chooses diff victims among filteredPods for a scale-down.
// When diff < len(filteredPods) it ranks the pods against relatedPods (see
// RankByRelatedPodsOnNode), reorders filteredPods in place so that its first
// diff pods are the first diff of sort.Sort with ActivePodsWithRanks (as
// upstream sorts, ties included; the pods after them are in no particular
// order, see sortPrefix) and returns those. Otherwise it returns the pods
// unsorted, in input order. A diff above len(filteredPods) is treated as
// len(filteredPods) (upstream's caller never passes one), and a negative
// diff as 0.
func GetPodsToDelete(filteredPods, relatedPods []*corev1.Pod, diff int, now time.Time) []*corev1.Pod {
	victims, _ := rankForDeletion(filteredPods, nil, relatedCounts(relatedPods), diff, 0, now)
	return victims
}

// relatedCounts defers ActivePerNode(related) until a ranking needs it.
func relatedCounts(related []*corev1.Pod) func() map[string]int {
	return func() map[string]int { return ActivePerNode(related) }
}

// rankForDeletion does GetPodsToDelete's work and also returns the ranked
// view (nil when no sort happened), in sort.Sort's order for its first
// diff+more pods (those read after the victims: the survivors a record
// shows). perNode gives the related pods' ActivePerNode counts; it is
// called only when a ranking happens. known, when not nil, holds the
// candidates' nodes and inputs, read instead of the pods.
func rankForDeletion(filteredPods []*corev1.Pod, known *KnownRankInputs, perNode func() map[string]int, diff, more int, now time.Time) ([]*corev1.Pod, *ActivePodsWithRanks) {
	diff = min(max(diff, 0), len(filteredPods))
	if diff == len(filteredPods) {
		return filteredPods[:diff], nil
	}
	var ranked ActivePodsWithRanks
	if known == nil {
		ranked = RankByNodeCounts(filteredPods, perNode(), now).withKeys()
	} else {
		ranked = rankKnown(filteredPods, known, perNode(), now)
	}
	// sort.Sort's order, not a stable sort's: equivalent pods end up where
	// upstream's sort puts them, so victim choice matches upstream on ties
	// too. Only the pods that are read need to be in place.
	sortPrefix(ranked, diff+max(more, 0))
	return filteredPods[:diff], &ranked
}

// rankKnown is RankByNodeCounts(pods, perNode, now).withKeys() from the
// pods' known nodes and inputs.
func rankKnown(pods []*corev1.Pod, known *KnownRankInputs, perNode map[string]int, now time.Time) ActivePodsWithRanks {
	rank, keys := known.Scratch.arrays(len(pods))
	s := ActivePodsWithRanks{Pods: pods, Rank: rank, Now: now, keys: keys}
	var ages rankAges
	for i, node := range known.Nodes[:len(pods)] {
		s.Rank[i] = perNode[node]
		s.keys[i] = rankKeyFrom(node, &known.Inputs[i], now, &ages)
	}
	return s
}

// GetPodsToDeleteExplained is GetPodsToDelete plus a DeletionRanking record
// for the trace. owner is the ReplicaSet key ("ns/name"); survivorsShown
// caps how many of the best-ranked survivors the record lists after the
// victims.
func GetPodsToDeleteExplained(owner string, filteredPods, relatedPods []*corev1.Pod, diff int, now time.Time, survivorsShown int) ([]*corev1.Pod, DeletionRanking) {
	return GetPodsToDeleteExplainedByNodeCounts(owner, filteredPods, nil, relatedCounts(relatedPods), diff, now, survivorsShown)
}

// GetPodsToDeleteExplainedByNodeCounts is GetPodsToDeleteExplained with the
// related pods given by their ActivePerNode counts, asked for only when a
// ranking happens, and, when known is not nil, the candidates' nodes and
// ranking inputs read from a cache instead of from the pods (known is
// aligned with filteredPods as passed; the sort reorders only the pods).
func GetPodsToDeleteExplainedByNodeCounts(owner string, filteredPods []*corev1.Pod, known *KnownRankInputs, perNode func() map[string]int, diff int, now time.Time, survivorsShown int) ([]*corev1.Pod, DeletionRanking) {
	candidates := len(filteredPods)
	// The record reads the victims, survivorsShown survivors after them,
	// and the pod after the last one shown (its Before).
	victims, ranked := rankForDeletion(filteredPods, known, perNode, diff, max(survivorsShown, 0)+1, now)
	rec := DeletionRanking{Owner: owner, Diff: diff, Candidates: candidates, Sorted: ranked != nil}
	if ranked == nil {
		// No sort: every candidate is a victim, ranks are not computed.
		rec.Pods = presized(len(victims))
		for _, p := range victims {
			rec.Pods = append(rec.Pods, describeRanked(p, -1, now, true))
		}
		return victims, rec
	}
	shown := min(len(victims)+max(survivorsShown, 0), candidates)
	rec.Pods = presized(shown)
	for i := 0; i < shown; i++ {
		e := describeRanked(ranked.Pods[i], ranked.Rank[i], now, i < len(victims))
		if i+1 < candidates {
			e.Before = ranked.Pods[i+1].Name
			e.DecidedBy, _ = ranked.Compare(i, i+1)
		}
		rec.Pods = append(rec.Pods, e)
	}
	return victims, rec
}

// presized returns room for n ranked pods: nil when n is 0, so that a
// record without pods keeps rendering "pods": null.
func presized(n int) []RankedPod {
	if n == 0 {
		return nil
	}
	return make([]RankedPod, 0, n)
}

// DeletionRanking records a scale-down victim choice with, for every victim
// and the next few survivors, the keys the ranking compared. It is emitted by
// the ReplicaSet controller before it deletes pods.
type DeletionRanking struct {
	// Owner is the ReplicaSet key "ns/name".
	Owner string `json:"owner"`
	// Diff is the number of pods asked for (before clamping to Candidates).
	Diff int `json:"diff"`
	// Candidates is the number of active pods the victims were chosen from.
	Candidates int `json:"candidates"`
	// Sorted is false when every candidate was taken in input order
	// (diff >= candidates), in which case no ranks were computed.
	Sorted bool `json:"sorted"`
	// Pods lists the victims first, in deletion order, then the best-ranked
	// survivors. Victims are marked Victim.
	Pods []RankedPod `json:"pods"`
}

// RankedPod is one pod's ranking keys, in rule order.
type RankedPod struct {
	Name string `json:"name"`
	UID  string `json:"uid"`
	// Victim is true when the pod is deleted.
	Victim bool `json:"victim"`
	// Node is spec.nodeName; Assigned is Node != "" (rule 1).
	Node     string `json:"node"`
	Assigned bool   `json:"assigned"`
	// Phase feeds rule 2.
	Phase string `json:"phase"`
	// Ready feeds rule 3.
	Ready bool `json:"ready"`
	// DeletionCost feeds rule 4 (0 when missing or invalid).
	DeletionCost int32 `json:"deletionCost"`
	// Rank feeds rule 5; -1 when no ranking happened.
	Rank int `json:"rank"`
	// ReadyBucket is LogBucket(now, ready since) for rule 6; nil when the pod
	// is not ready or has no ready time.
	ReadyBucket *int `json:"readyBucket,omitempty"`
	// Restarts and SidecarRestarts are the maxima of rule 7.
	Restarts        int `json:"restarts"`
	SidecarRestarts int `json:"sidecarRestarts"`
	// CreationBucket is LogBucket(now, creationTimestamp) for rule 8; nil for
	// a zero creation time.
	CreationBucket *int `json:"creationBucket,omitempty"`
	// Before names the next pod in deletion order, and DecidedBy the rule
	// that put this pod ahead of it (RuleTie: equivalent). Empty for the
	// last candidate and when no ranking happened.
	Before    string   `json:"before,omitempty"`
	DecidedBy RankRule `json:"decidedBy"`
}

func describeRanked(p *corev1.Pod, rank int, now time.Time, victim bool) RankedPod {
	restarts, sidecar := maxRestarts(p)
	e := RankedPod{
		Name: p.Name, UID: string(p.UID), Victim: victim,
		Node: p.Spec.NodeName, Assigned: p.Spec.NodeName != "",
		Phase: string(p.Status.Phase), Ready: IsPodReady(p),
		DeletionCost: PodDeletionCost(p), Rank: rank,
		Restarts: restarts, SidecarRestarts: sidecar,
	}
	if since := PodReadySince(p); e.Ready && !since.IsZero() {
		b := LogBucket(now, since)
		e.ReadyBucket = &b
	}
	if created := p.CreationTimestamp.Time; !created.IsZero() {
		b := LogBucket(now, created)
		e.CreationBucket = &b
	}
	return e
}

var _ trace.Payload = DeletionRanking{}

// Kind implements trace.Payload.
func (DeletionRanking) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload, e.g.
// "default/web delete 2 of 5 ranked: web-a [unscheduled] web-b [phase] | keep web-c".
func (d DeletionRanking) Text() string {
	var b strings.Builder
	b.WriteString(d.Owner)
	b.WriteString(" delete ")
	b.WriteString(strconv.Itoa(min(max(d.Diff, 0), d.Candidates)))
	b.WriteString(" of ")
	b.WriteString(strconv.Itoa(d.Candidates))
	if d.Sorted {
		b.WriteString(" ranked:")
	} else {
		b.WriteString(" unsorted (all):")
	}
	kept := false
	for _, p := range d.Pods {
		if !p.Victim && !kept {
			b.WriteString(" | keep")
			kept = true
		}
		b.WriteString(" ")
		b.WriteString(p.Name)
		if p.Victim && p.Before != "" {
			b.WriteString(" [")
			b.WriteString(p.DecidedBy.String())
			b.WriteString("]")
		}
	}
	return b.String()
}
