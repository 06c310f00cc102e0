package deployment

import (
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/controller/events"
	"github.com/rolloutlab/rolloutlab/engine/workqueue"
)

// Checkpoint is the controller's whole mutable state at one moment: its
// workqueue, the path of the current sync, its event recorder and the
// remembered template comparisons. The
// informers it reads belong to the simulation, which checkpoints them.
type Checkpoint struct {
	queue  *workqueue.Checkpoint
	path   string
	events events.Checkpoint
	// templates is templateMatches.byRS.
	templates map[types.UID]templateMatch
}

// Checkpoint saves the controller's state.
func (dc *Controller) Checkpoint() *Checkpoint {
	return &Checkpoint{queue: dc.queue.Checkpoint(), path: dc.path, events: dc.events.Checkpoint(), templates: dc.templates.checkpoint()}
}

// Restore puts the controller back in the saved state; the checkpoint can
// be restored again.
func (dc *Controller) Restore(cp *Checkpoint) {
	dc.queue.Restore(cp.queue)
	dc.path = cp.path
	dc.events.Restore(cp.events)
	dc.templates.restore(cp.templates)
}
