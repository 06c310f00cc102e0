package sim

import (
	"fmt"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// next is the event chosen to run.
type next struct {
	at   time.Time
	kind StepKind
	// index selects within the kind: the informer, the controller whose
	// timer is due, or the timeline entry (a sync's controller is chosen
	// when it runs).
	index int
	// rv orders watch deliveries across informers.
	rv uint64
}

func (n next) before(o next) bool {
	// One Compare instead of Equal then Before (see kubelet's timerHeap.less).
	if c := n.at.Compare(o.at); c != 0 {
		return c < 0
	}
	if n.kind != o.kind {
		return n.kind < o.kind
	}
	if n.kind == StepWatch {
		return n.rv < o.rv
	}
	return n.index < o.index
}

// pick returns the next event due, if any.
func (s *Sim) pick() (next, bool) { return s.pickFrom(true) }

// pickFrom is pick, optionally ignoring the timeline (conditions that ask
// whether the cluster is quiet must not consult themselves).
func (s *Sim) pickFrom(withTimeline bool) (next, bool) {
	now := s.clock.Now()
	var best next
	found := false
	consider := func(c next) {
		if !found || c.before(best) {
			best, found = c, true
		}
	}
	for i, a := range s.timeline {
		if !withTimeline {
			break
		}
		if a.When != nil {
			if a.When(s) {
				consider(next{at: now, kind: StepAction, index: i})
			}
			continue
		}
		at := a.At
		if at.Before(now) {
			at = now
		}
		consider(next{at: at, kind: StepAction, index: i})
	}
	for i, inf := range s.informers {
		if at, ok := inf.NextDue(); ok {
			if at.Before(now) {
				at = now
			}
			consider(next{at: at, kind: StepWatch, index: i, rv: inf.NextRV()})
		}
	}
	for i, c := range s.controllers {
		if at, ok := c.queue.NextReadyAt(); ok {
			if at.Before(now) {
				at = now
			}
			consider(next{at: at, kind: StepTimer, index: i})
		}
	}
	if at, ok := s.kubelet.NextDue(); ok {
		if at.Before(now) {
			at = now
		}
		consider(next{at: at, kind: StepKubelet})
	}
	if s.gc.HasWork() {
		consider(next{at: now, kind: StepGC})
	} else if at, ok := s.gc.NextDue(); ok {
		if at.Before(now) {
			at = now
		}
		consider(next{at: at, kind: StepGC})
	}
	// A controller with a ready key syncs now; which one is decided when
	// the step runs (nextController), so that picking stays free of side
	// effects.
	for _, c := range s.controllers {
		if c.queue.Len() > 0 {
			consider(next{at: now, kind: StepSync})
			break
		}
	}
	return best, found
}

// Idle reports whether nothing at all is due, now or later.
func (s *Sim) Idle() bool {
	_, ok := s.pick()
	return !ok
}

// Quiet reports whether nothing is due, now or later, apart from pending
// timeline actions: the cluster has settled.
func (s *Sim) Quiet() bool {
	_, ok := s.pickFrom(false)
	return !ok
}

// NextDue returns when the next event is due.
func (s *Sim) NextDue() (time.Time, bool) {
	n, ok := s.pick()
	return n.at, ok
}

// Step performs exactly one event, advancing the clock to it if needed. ok
// is false when nothing is due (the simulation is idle) or the run was
// stopped by a limit (see Err).
func (s *Sim) Step() (StepInfo, bool) {
	if s.err != nil {
		return StepInfo{}, false
	}
	n, ok := s.pick()
	if !ok {
		return StepInfo{}, false
	}
	return s.stepTo(n)
}

// stepTo is Step for the event n that pick has just returned, with nothing
// changed since: Settle and RunTo pick once per step to look at the time
// of the next event and run that same event, instead of picking again (a
// pick consults every component).
func (s *Sim) stepTo(n next) (StepInfo, bool) {
	if s.err != nil {
		return StepInfo{}, false
	}
	if s.step >= s.opts.Limits.MaxSteps {
		s.stop(fmt.Errorf("%w: %d steps (spec.limits.maxSteps)", ErrStepLimit, s.opts.Limits.MaxSteps))
		return StepInfo{}, false
	}
	s.clock.AdvanceTo(n.at)
	s.step++
	s.rec.SetStep(s.step)
	info := StepInfo{Step: s.step, Kind: n.kind, At: s.clock.Elapsed(), FirstSeq: uint64(s.rec.Len() + 1)}
	s.run(n, &info)
	s.observe()
	info.LastSeq = uint64(s.rec.Len())
	lim := s.opts.Limits
	switch {
	case s.podCount > lim.MaxPods:
		s.stop(fmt.Errorf("%w: %d pods exist, the limit is %d (spec.limits.maxPods)", ErrPodLimit, s.podCount, lim.MaxPods))
		info.LastSeq = uint64(s.rec.Len())
	case lim.MaxTraceRecords > 0 && s.rec.Len() > lim.MaxTraceRecords:
		s.stop(fmt.Errorf("%w: %d records, the limit is %d (spec.limits.maxTraceRecords)", ErrTraceLimit, s.rec.Len(), lim.MaxTraceRecords))
		info.LastSeq = uint64(s.rec.Len())
	}
	return info, true
}

func (s *Sim) run(n next, info *StepInfo) {
	switch n.kind {
	case StepAction:
		a := s.timeline[n.index]
		s.timeline = append(s.timeline[:n.index], s.timeline[n.index+1:]...)
		info.Component, info.Key = "timeline", a.Name
		s.runAction(a)
	case StepWatch:
		inf := s.informers[n.index]
		info.Component = informerComponent(inf.Resource())
		info.Key = inf.NextKey()
		inf.DeliverNext()
	case StepTimer:
		c := s.controllers[n.index]
		info.Component = c.name
		c.queue.PromoteDue()
	case StepKubelet:
		info.Component = "kubelet"
		s.kubelet.Step()
	case StepGC:
		info.Component = "garbage-collector"
		s.gc.Step()
	case StepSync:
		i := s.nextController()
		s.lastSynced, s.turnTaken = i, true
		c := s.controllers[i]
		info.Component = c.name
		info.Key, _ = c.sync()
	}
}

func (s *Sim) stop(err error) {
	s.err = err
	s.rec.Emit("sim", trace.Note{Message: "run stopped: " + err.Error()})
}

// informerComponent is the StepInfo component of a watch delivery to the
// informer of res: "informer/pods". The resources the simulation watches
// have theirs written out, so a delivery builds no string.
func informerComponent(res apiserver.Resource) string {
	switch res {
	case apiserver.Pods:
		return "informer/pods"
	case apiserver.ReplicaSets:
		return "informer/replicasets"
	case apiserver.Deployments:
		return "informer/deployments"
	}
	return "informer/" + string(res)
}
