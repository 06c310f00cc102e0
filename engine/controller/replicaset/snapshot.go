package replicaset

import (
	"github.com/rolloutlab/rolloutlab/engine/controller/events"
	"github.com/rolloutlab/rolloutlab/engine/expectations"
	"github.com/rolloutlab/rolloutlab/engine/workqueue"
)

// Checkpoint is the controller's whole mutable state at one moment: its
// workqueue, expectations, stale-cache gate, count of syncs skipped as
// stale and event recorder. The informers it reads belong to the
// simulation, which checkpoints them.
type Checkpoint struct {
	queue        *workqueue.Checkpoint
	expectations *expectations.Checkpoint
	consistency  *expectations.ConsistencyCheckpoint
	staleSkips   int
	events       events.Checkpoint
}

// Checkpoint saves the controller's state.
func (rc *Controller) Checkpoint() *Checkpoint {
	return &Checkpoint{
		queue:        rc.queue.Checkpoint(),
		expectations: rc.expectations.Checkpoint(),
		consistency:  rc.consistency.Checkpoint(),
		staleSkips:   rc.staleSkips,
		events:       rc.events.Checkpoint(),
	}
}

// Restore puts the controller back in the saved state; the checkpoint can
// be restored again.
func (rc *Controller) Restore(cp *Checkpoint) {
	rc.queue.Restore(cp.queue)
	rc.expectations.Restore(cp.expectations)
	rc.consistency.Restore(cp.consistency)
	rc.staleSkips = cp.staleSkips
	rc.events.Restore(cp.events)
}
