package kubelet

import (
	"maps"
	"slices"
)

// Checkpoint is the pod lifecycle model's whole mutable state at one
// moment: its configuration (image profiles change at run time), its
// position in the watch log, every pod's and node's state, the timers and
// their sequence number, and the pods waiting for a ready node. Pod and
// node states change in place, so they are copied.
type Checkpoint struct {
	cfg           Config
	cursor        int
	pods          map[string]podState
	nodes         map[string]nodeState
	timers        timerHeap
	seq           uint64
	unschedulable []string
}

// Checkpoint saves the model's state.
func (k *Kubelet) Checkpoint() *Checkpoint {
	cp := &Checkpoint{
		cfg:           k.cfg,
		cursor:        k.cursor,
		pods:          make(map[string]podState, len(k.pods)),
		nodes:         make(map[string]nodeState, len(k.nodes)),
		timers:        slices.Clone(k.timers),
		seq:           k.seq,
		unschedulable: slices.Clone(k.unschedulable),
	}
	cp.cfg.Images = maps.Clone(k.cfg.Images)
	for key, p := range k.pods {
		cp.pods[key] = *p
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
	restoreStates(k.pods, cp.pods)
	restoreStates(k.nodes, cp.nodes)
	k.timers = slices.Clone(cp.timers)
	// The saved timers hold the states of the moment they were saved,
	// which have changed or left the map since: each pod timer takes the
	// restored state of its key (see timer.pod).
	for i := range k.timers {
		if t := &k.timers[i]; t.pod != nil {
			t.pod = k.pods[t.key]
		}
	}
	k.seq = cp.seq
	k.unschedulable = slices.Clone(cp.unschedulable)
}

// restoreStates makes live hold saved's states, overwriting the live
// records in place (nothing else points at them).
func restoreStates[V any](live map[string]*V, saved map[string]V) {
	for key := range live {
		if _, ok := saved[key]; !ok {
			delete(live, key)
		}
	}
	for key, v := range saved {
		if cur := live[key]; cur != nil {
			*cur = v
		} else {
			v := v
			live[key] = &v
		}
	}
}
