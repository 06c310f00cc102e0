package kubelet

import (
	"maps"
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// Checkpoint is the pod lifecycle model's whole mutable state at one
// moment: its configuration (image profiles change at run time), its
// position in the watch log, every pod's and node's state, the timers and
// their sequence number, and the pods waiting for a node. Pod states
// are copy-on-write (see package cow): the checkpoint shares the map (cow.Map) and
// shares the states, which the model copies before writing; a state a
// checkpoint holds is never written again, so a checkpoint taken after
// another shares every state not written in between. Node states (a
// handful) are copied.
type Checkpoint struct {
	cfg           Config
	cursor        int
	pods          cow.MapSnapshot[string, *podState]
	nodes         map[string]nodeState
	timers        timerHeap
	seq           uint64
	unschedulable []string
}

// Checkpoint saves the model's state. The pod states not written since an
// earlier checkpoint are shared with it.
func (k *Kubelet) Checkpoint() *Checkpoint {
	cp := &Checkpoint{
		cfg:           k.cfg,
		cursor:        k.cursor,
		pods:          k.pods.Snapshot(),
		nodes:         make(map[string]nodeState, len(k.nodes)),
		timers:        slices.Clone(k.timers),
		seq:           k.seq,
		unschedulable: slices.Clone(k.unschedulable),
	}
	k.epoch = cow.NewToken() // the states are now shared with cp
	cp.cfg.Images = maps.Clone(k.cfg.Images)
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
	k.pods.Restore(cp.pods)
	k.epoch = cow.NewToken() // the states are shared with cp
	for name := range k.nodes {
		if _, ok := cp.nodes[name]; !ok {
			delete(k.nodes, name)
		}
	}
	for name, n := range cp.nodes {
		if cur := k.nodes[name]; cur != nil {
			*cur = n
		} else {
			k.nodes[name] = &n
		}
	}
	k.timers = slices.Clone(cp.timers)
	k.seq = cp.seq
	k.unschedulable = slices.Clone(cp.unschedulable)
}
