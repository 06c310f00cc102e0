package deployment

import (
	"github.com/rolloutlab/rolloutlab/engine/controller/events"
	"github.com/rolloutlab/rolloutlab/engine/workqueue"
)

// Checkpoint is the controller's whole mutable state at one moment: its
// workqueue, the path of the current sync and its event recorder. The
// informers it reads belong to the simulation, which checkpoints them.
type Checkpoint struct {
	queue  *workqueue.Checkpoint
	path   string
	events events.Checkpoint
}

// Checkpoint saves the controller's state.
func (dc *Controller) Checkpoint() *Checkpoint {
	return &Checkpoint{queue: dc.queue.Checkpoint(), path: dc.path, events: dc.events.Checkpoint()}
}

// Restore puts the controller back in the saved state; the checkpoint can
// be restored again.
func (dc *Controller) Restore(cp *Checkpoint) {
	dc.queue.Restore(cp.queue)
	dc.path = cp.path
	dc.events.Restore(cp.events)
}
