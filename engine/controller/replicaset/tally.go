package replicaset

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// Pod states the pod store's group summary files pods under (see
// classifyPod); a pod may carry several.
const (
	// podActive: podutil.IsPodActive.
	podActive uint8 = 1 << iota
	// podTerminating: podutil.IsPodTerminating.
	podTerminating
	// podReady: podutil.IsPodReady.
	podReady
)

// classifyPod is the pod store's informer.Classifier: the pod's activity,
// termination and readiness bits, tagged with its node name (what a
// deletion ranking counts pods by), and its deletion-ranking inputs.
func classifyPod(obj apiserver.Object) informer.Facts {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return informer.Facts{}
	}
	var st uint8
	if podutil.IsPodActive(p) {
		st |= podActive
	}
	if podutil.IsPodTerminating(p) {
		st |= podTerminating
	}
	if podutil.IsPodReady(p) {
		st |= podReady
	}
	return informer.Facts{State: st, Tag: p.Spec.NodeName, Nums: podutil.RankInputsOf(p)}
}

// podTally is what a sync needs from rs's pods when the claim changes
// nothing, read from the group summary of the pod owner index instead of
// the pods.
type podTally struct {
	// activeOrphans counts the active orphans of rs's namespace (none
	// matches its selector: the claim skips them all).
	activeOrphans int
	// terminating counts the terminating pods controlled by rs that match
	// its selector.
	terminating int
	// status counts the active owned pods; Available is Ready, valid only
	// when minReadySeconds is 0.
	status podutil.StatusCounts
}

// tally returns rs's podTally. ok is false when a sync must walk the pods
// instead: the store keeps no group summary, rs is being deleted (the
// claim then skips differently), an active pod rs controls does not match
// the selector (the claim would release it) or an active orphan matches it
// (the claim would try to adopt it). A tally costs one step per group of
// pods sharing labels and state, not per pod.
func (rc *Controller) tally(rs *appsv1.ReplicaSet, selector labels.Selector) (t podTally, ok bool) {
	store := rc.pods.Store()
	if rc.walkAlways || rs.DeletionTimestamp != nil || !store.Summarized(informer.PodControllerIndex) {
		return t, false
	}
	ok = true
	store.EachGroup(informer.PodControllerIndex, rs.Namespace, func(g informer.Group) {
		if g.State&podActive == 0 {
			return
		}
		if selector.Matches(labels.Set(g.Labels)) {
			ok = false
		}
		t.activeOrphans += g.Count
	})
	if !ok {
		return t, false
	}
	tmpl := rs.Spec.Template.Labels
	store.EachGroup(informer.PodControllerIndex, ownedKey(rs), func(g informer.Group) {
		matches := selector.Matches(labels.Set(g.Labels))
		if g.State&podTerminating != 0 && matches {
			t.terminating += g.Count
		}
		if g.State&podActive == 0 {
			return
		}
		if !matches {
			ok = false
			return
		}
		n := int32(g.Count)
		t.status.Replicas += n
		if podutil.HasAllLabels(g.Labels, tmpl) {
			t.status.FullyLabeled += n
		}
		if g.State&podReady != 0 {
			t.status.Ready += n
		}
	})
	t.status.Available = t.status.Ready
	return t, ok
}

// addSelectedFromGroups adds to perNode the active pods relRS's selector
// selects that no earlier scope selects, counted from relRS's owned groups,
// when those are provably all the pods it selects: the pods it controls and
// that match are a subset of the matches, which are a subset of the label
// bucket NarrowestCount measures, so equal sizes make the three one set.
// It reports false, having added nothing, otherwise; the caller then walks
// the matches.
func (rc *Controller) addSelectedFromGroups(relRS *appsv1.ReplicaSet, sel labels.Selector, earlier []relatedScope, perNode map[string]int) bool {
	store := rc.pods.Store()
	if rc.walkAlways || !store.Summarized(informer.PodControllerIndex) {
		return false
	}
	bound, ok := store.NarrowestCount(relRS.Namespace, sel)
	if !ok {
		return false
	}
	key := ownedKey(relRS)
	owned := 0
	store.EachGroup(informer.PodControllerIndex, key, func(g informer.Group) {
		if sel.Matches(labels.Set(g.Labels)) {
			owned += g.Count
		}
	})
	if owned != bound {
		return false
	}
	store.EachGroup(informer.PodControllerIndex, key, func(g informer.Group) {
		if g.State&podActive == 0 || !sel.Matches(labels.Set(g.Labels)) || selectedEarlier(earlier, relRS.Namespace, g.Labels) {
			return
		}
		perNode[g.Tag] += g.Count
	})
	return true
}

// activeOwnedPods lists the active pods controlled by rs in owner-index
// order (the pods a claim that changes nothing returns, in its order), with
// their nodes and ranking inputs as the store keeps them. n is their
// expected number. The lists live in rc.scratch and are overwritten by the
// next call: they serve the current sync only.
func (rc *Controller) activeOwnedPods(rs *appsv1.ReplicaSet, n int) ([]*corev1.Pod, *podutil.KnownRankInputs) {
	sc := &rc.scratch
	if cap(sc.pods) < n {
		sc.pods = make([]*corev1.Pod, 0, n)
		sc.known.Nodes = make([]string, 0, n)
		sc.known.Inputs = make([]podutil.RankInputs, 0, n)
	}
	pods := sc.pods[:0]
	known := &sc.known
	known.Nodes, known.Inputs, known.Scratch = known.Nodes[:0], known.Inputs[:0], &sc.rank
	rc.pods.Store().EachByIndexFacts(informer.PodControllerIndex, ownedKey(rs), func(o apiserver.Object, f *informer.Facts) {
		if p, ok := o.(*corev1.Pod); ok && f.State&podActive != 0 {
			pods = append(pods, p)
			known.Nodes = append(known.Nodes, f.Tag)
			known.Inputs = append(known.Inputs, f.Nums)
		}
	})
	sc.pods = pods
	return pods, known
}

// syncScratch holds the arrays a sync lists its pods into and ranks them
// with, reused by the next sync instead of allocated for each (a
// rollout's scale-downs list and rank the old ReplicaSet's pods many
// times). It is scratch, not state: the sync that fills it empties it
// (reset), keeping only the arrays' capacity, so checkpoints leave it out
// and a controller looks the same whatever syncs it ran.
type syncScratch struct {
	// pods, known and rank back activeOwnedPods' lists and the ranking of
	// a scale-down.
	pods  []*corev1.Pod
	known podutil.KnownRankInputs
	rank  podutil.RankScratch
}

// reset empties the lists, dropping their pod pointers, so that nothing of
// a sync stays behind for the next one.
func (sc *syncScratch) reset() {
	if len(sc.pods) == 0 && sc.known.Scratch == nil {
		return
	}
	clear(sc.pods)
	clear(sc.known.Nodes)
	sc.pods, sc.known.Nodes, sc.known.Inputs = sc.pods[:0], sc.known.Nodes[:0], sc.known.Inputs[:0]
	sc.known.Scratch = nil
}

// ownedKey is the PodControllerIndex value of the pods rs controls.
func ownedKey(rs *appsv1.ReplicaSet) string {
	return informer.PodControllerKey(rs.Namespace, "ReplicaSet", rs.Name, string(rs.UID))
}
