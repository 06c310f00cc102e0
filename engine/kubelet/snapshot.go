package kubelet

import (
	"maps"
	"slices"
)

// Checkpoint is the pod lifecycle model's whole mutable state at one
// moment: its configuration (image profiles change at run time), its
// position in the watch log, every pod's and node's state, the timers and
// their sequence number, and the pods waiting for a ready node. Pod and
// node states change in place, so they are copied; a saved pod state is
// never changed, so a checkpoint taken after another shares the states
// that did not change in between (CheckpointAfter).
type Checkpoint struct {
	cfg           Config
	cursor        int
	pods          map[string]*podState
	nodes         map[string]nodeState
	timers        timerHeap
	seq           uint64
	unschedulable []string
}

// Checkpoint saves the model's state.
func (k *Kubelet) Checkpoint() *Checkpoint { return k.CheckpointAfter(nil) }

// CheckpointAfter saves the model's state, sharing with prev (an earlier
// checkpoint, or nil) the pod states equal to its own.
func (k *Kubelet) CheckpointAfter(prev *Checkpoint) *Checkpoint {
	cp := &Checkpoint{
		cfg:           k.cfg,
		cursor:        k.cursor,
		pods:          make(map[string]*podState, len(k.pods)),
		nodes:         make(map[string]nodeState, len(k.nodes)),
		timers:        slices.Clone(k.timers),
		seq:           k.seq,
		unschedulable: slices.Clone(k.unschedulable),
	}
	cp.cfg.Images = maps.Clone(k.cfg.Images)
	var before map[string]*podState
	if prev != nil {
		before = prev.pods
	}
	for key, p := range k.pods {
		if old := before[key]; old != nil && *old == *p {
			cp.pods[key] = old
			continue
		}
		saved := *p
		cp.pods[key] = &saved
	}
	for name, n := range k.nodes {
		cp.nodes[name] = *n
	}
	return cp
}

// Restore puts the model back in the saved state; the checkpoint can be
// restored again. The node order is configuration and stays.
func (k *Kubelet) Restore(cp *Checkpoint) {
	k.cfg = cp.cfg
	k.cfg.Images = maps.Clone(cp.cfg.Images)
	k.cursor = cp.cursor
	restoreStates(k.pods, cp.pods, func(p *podState) podState { return *p })
	restoreStates(k.nodes, cp.nodes, func(n nodeState) nodeState { return n })
	k.timers = slices.Clone(cp.timers)
	k.seq = cp.seq
	k.unschedulable = slices.Clone(cp.unschedulable)
}

// restoreStates makes live hold saved's states (value gives a saved
// state's value), overwriting the live records in place (nothing else
// points at them).
func restoreStates[V comparable, S any](live map[string]*V, saved map[string]S, value func(S) V) {
	for key := range live {
		if _, ok := saved[key]; !ok {
			delete(live, key)
		}
	}
	for key, sv := range saved {
		v := value(sv)
		if cur := live[key]; cur != nil {
			if *cur != v {
				*cur = v
			}
		} else {
			live[key] = &v
		}
	}
}
