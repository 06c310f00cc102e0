package sim

import (
	"slices"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/controller/deployment"
	"github.com/rolloutlab/rolloutlab/engine/controller/replicaset"
	"github.com/rolloutlab/rolloutlab/engine/gc"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/kubelet"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Checkpoint is the whole simulation at one moment, from which Restore
// continues exactly as the simulation did: the clock, the random streams,
// the trace length, the API server, the garbage collector, the informers,
// both controllers, the pod lifecycle model, the pending actions and the
// simulator's own counters. Each component checkpoints itself (its
// snapshot.go); immutable things (stored objects, trace records, actions)
// are shared, so a checkpoint costs a copy of the maps and slices that
// index them, not of the objects. Per-object states that change in place
// (pod states, graph nodes, cache entries and sets) are copy-on-write
// (package internal/cow): a checkpoint copies the maps that hold them, and
// the component copies a state before its first write after a checkpoint
// or a restore, so a saved state is never changed and every checkpoint
// shares the states that did not change since the one before. Options and
// the wiring between components never change and are not part of it.
type Checkpoint struct {
	step       int
	clock      clock.Checkpoint
	streams    []rng.Checkpoint
	rec        trace.Checkpoint
	server     *apiserver.Checkpoint
	gc         *gc.Checkpoint
	informers  []*informer.Checkpoint
	rsc        *replicaset.Checkpoint
	dc         *deployment.Checkpoint
	kubelet    *kubelet.Checkpoint
	lastSynced int
	turnTaken  bool
	// turns is the turn-order stream's state (TurnRandom only).
	turns     *rng.Checkpoint
	timeline  []*Action
	actionSeq int
	podCount  int
	logCursor int
	err       error
	// objects is the number of objects stored and changed the number
	// stored in another version than in the checkpoint this one was taken
	// after (all of them when none), for ApproxBytes.
	objects, changed int
}

// Checkpoint memory, measured on a rollout of 7,800 replicas (100k steps):
// what a checkpoint copies per stored object whatever changed (chunk
// headers of the copy-on-write maps, the kubelet's timers, and the
// chunks of maps and sets written since the checkpoint before), and what
// it adds per object changed since the checkpoint it was taken after (the
// saved states of that object in every component, and the object's
// version, which the checkpoint keeps alive once the run has replaced it:
// a pod version is 1.2 to 2.5 kB of corev1.Pod). Fitted on the memory
// freed by dropping every checkpoint but the first, with the session at
// step 0 (so that the end of the run is not held by the live state
// either), at two fixed spacings and at the default layout (sums of
// objects and of objects changed over the checkpoints, MB held): 35
// checkpoints 4,096 steps apart 307,377, 57,905, 174.1 MB; 9 at 16,384
// 74,487, 48,181, 138.3 MB; 81 (default budget) 644,325, 60,631, 198.8
// MB. Most of it is object versions: every checkpoint holds every pod's
// version of its moment, and a denser layout adds few versions no other
// checkpoint holds (BenchmarkCheckpointMemory reports the estimate and
// the memory held at the fixed spacings, with the sums).
const (
	approxBytesPerObject        = 46
	approxBytesPerChangedObject = 2780
)

// ApproxBytes estimates the memory the checkpoint holds beyond what the
// checkpoint it was taken after holds: FixedBytes, plus the states and
// versions of the objects changed in between.
func (c *Checkpoint) ApproxBytes() int {
	return c.FixedBytes() + c.changed*approxBytesPerChangedObject
}

// ApproxBytesAfter is ApproxBytes for c kept right after prev (an earlier
// checkpoint of the same run) once the checkpoints taken between them are
// dropped: the objects changed are counted since prev.
func (c *Checkpoint) ApproxBytesAfter(prev *Checkpoint) int {
	return c.FixedBytes() + c.server.ObjectsChangedSince(prev.server)*approxBytesPerChangedObject
}

// FixedBytes is the part of ApproxBytes that does not depend on what
// changed: what the checkpoint copies for every object stored.
func (c *Checkpoint) FixedBytes() int { return 4096 + c.objects*approxBytesPerObject }

// Objects returns the number of objects stored at the checkpoint, and
// Changed the number of those changed since the checkpoint it was taken
// after (all of them when none): what ApproxBytes counts.
func (c *Checkpoint) Objects() int { return c.objects }
func (c *Checkpoint) Changed() int { return c.changed }

// Step returns the step count the checkpoint was taken at.
func (c *Checkpoint) Step() int { return c.step }

// Records returns the number of trace records written up to the checkpoint
// (what replaying from one checkpoint to another costs follows the records
// written in between).
func (c *Checkpoint) Records() int { return c.rec.Len() }

// Checkpoint saves the simulation's state.
func (s *Sim) Checkpoint() *Checkpoint { return s.CheckpointAfter(nil) }

// CheckpointAfter saves the simulation's state; prev (an earlier checkpoint
// of this simulation's run, or nil) is what its size estimate counts the
// objects changed since (ApproxBytes). Saved states are never changed, so
// dropping prev later is safe.
func (s *Sim) CheckpointAfter(prev *Checkpoint) *Checkpoint {
	cp := &Checkpoint{
		step:       s.step,
		clock:      s.clock.Checkpoint(),
		rec:        s.rec.Checkpoint(),
		server:     s.server.Checkpoint(),
		gc:         s.gc.Checkpoint(),
		rsc:        s.rsc.Checkpoint(),
		dc:         s.dc.Checkpoint(),
		kubelet:    s.kubelet.Checkpoint(),
		lastSynced: s.lastSynced,
		turnTaken:  s.turnTaken,
		timeline:   slices.Clone(s.timeline),
		actionSeq:  s.actionSeq,
		podCount:   s.podCount,
		logCursor:  s.logCursor,
		err:        s.err,
		objects:    s.server.ObjectCount(),
	}
	for _, st := range s.streams {
		cp.streams = append(cp.streams, st.Checkpoint())
	}
	for _, inf := range s.informers {
		cp.informers = append(cp.informers, inf.Checkpoint())
	}
	cp.changed = cp.objects
	if prev != nil {
		cp.changed = cp.server.ObjectsChangedSince(prev.server)
	}
	return cp
}

// Restore puts the simulation back in the saved state, which must come
// from the same run: this simulation's (earlier or later), or another's
// built from the same scenario and options with the same actions up to
// there (a fork, or a fresh simulation replacing one an internal error may
// have left half-changed). The checkpoint stays usable, and what it shares
// with the simulations that restore it (records, events, watch-log
// entries) is never written again by any of them (see trace.Checkpoint).
// Actions in the restored timeline are the ones that were pending then;
// an action's Do may carry state of its own (the session's timeline
// cursor), which its owner restores, and a checkpoint of another
// simulation's shares its pending actions, which the owner rebinds
// (ReplaceAction).
func (s *Sim) Restore(cp *Checkpoint) {
	s.step = cp.step
	s.clock.Restore(cp.clock)
	for i, st := range s.streams {
		st.Restore(cp.streams[i])
	}
	s.rec.Restore(cp.rec)
	s.server.Restore(cp.server)
	s.gc.Restore(cp.gc)
	for i, inf := range s.informers {
		inf.Restore(cp.informers[i])
	}
	s.rsc.Restore(cp.rsc)
	s.dc.Restore(cp.dc)
	s.kubelet.Restore(cp.kubelet)
	s.lastSynced = cp.lastSynced
	s.turnTaken = cp.turnTaken
	s.timeline = slices.Clone(cp.timeline)
	s.actionSeq = cp.actionSeq
	s.podCount = cp.podCount
	s.logCursor = cp.logCursor
	s.err = cp.err
}

// ReplayToward tells the API server that the steps about to run replay
// the run toward cp, a later checkpoint of it, so that its writes store
// the versions cp holds instead of new copies of them
// (apiserver.Server.ReplayToward). nil stops it; the caller must stop it
// before the run takes another path than the one cp was taken on.
func (s *Sim) ReplayToward(cp *Checkpoint) {
	if cp == nil {
		s.server.ReplayToward(nil)
		return
	}
	s.server.ReplayToward(cp.server)
}

// ReplaceAction puts b in the place of the pending action a (same turn in
// the order of actions due together) and reports whether a was pending.
func (s *Sim) ReplaceAction(a, b *Action) bool {
	for i, p := range s.timeline {
		if p == a {
			b.seq = a.seq
			s.timeline[i] = b
			return true
		}
	}
	return false
}
