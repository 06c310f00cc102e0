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
	k.pods = make(map[string]*podState, len(cp.pods))
	for key, p := range cp.pods {
		p := p
		k.pods[key] = &p
	}
	k.nodes = make(map[string]*nodeState, len(cp.nodes))
	for name, n := range cp.nodes {
		n := n
		k.nodes[name] = &n
	}
	k.timers = slices.Clone(cp.timers)
	k.seq = cp.seq
	k.unschedulable = slices.Clone(cp.unschedulable)
}
