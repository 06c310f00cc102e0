package sim

import (
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/controller/deployment"
	"github.com/rolloutlab/rolloutlab/engine/controller/replicaset"
	"github.com/rolloutlab/rolloutlab/engine/gc"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
	"github.com/rolloutlab/rolloutlab/engine/kubelet"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/engine/workqueue"
)

// Sentinel errors that stop a run.
var (
	// ErrStepLimit: the run reached Limits.MaxSteps.
	ErrStepLimit = errors.New("step limit reached")
	// ErrPodLimit: more pods exist than Limits.MaxPods allows.
	ErrPodLimit = errors.New("pod limit exceeded")
	// ErrTraceLimit: the trace holds more records than
	// Limits.MaxTraceRecords allows.
	ErrTraceLimit = errors.New("trace limit reached")
)

// Sim is one simulated cluster with both controllers.
type Sim struct {
	opts  Options
	clock *clock.Clock
	root  *rng.Root
	// streams are the random streams handed to components, checkpointed
	// here because the components do not own them.
	streams []*rng.Stream
	rec     *trace.Recorder

	server *apiserver.Server
	gc     *gc.Collector
	// informers are the shared caches, in the order their deliveries are
	// considered (ties are broken by resourceVersion anyway).
	deployInf, rsInf, podInf *informer.Informer
	informers                []*informer.Informer

	rsc *replicaset.Controller
	dc  *deployment.Controller
	// controllers lists the sync sources in turn order.
	controllers []syncer
	// lastSynced is the index in controllers of the last controller that
	// synced (the last one before any sync), the reference point of the
	// turn-order policy; turnTaken is false until a controller has synced.
	lastSynced int
	turnTaken  bool
	// turns draws TurnRandom's choices; nil under the other policies.
	turns *rng.Stream

	kubelet *kubelet.Kubelet

	// timeline holds actions not yet run: timed ones by time (then order
	// added), conditional ones in order added.
	timeline []*Action
	// actionSeq numbers actions in the order they were scheduled.
	actionSeq int

	// step is the number of steps taken.
	step int
	// podCount tracks pods currently stored, from the watch log.
	podCount  int
	logCursor int
	// err is sticky: once a limit stops the run, Step refuses to go on.
	err error
}

// syncer is a controller as the simulator drives it.
type syncer struct {
	name  string
	queue *workqueue.Queue
	sync  func() (string, bool)
}

// New builds a simulation from opts. Nothing happens until Step is called.
func New(opts Options) (*Sim, error) {
	if opts.Start.IsZero() {
		opts.Start = clock.Epoch
	}
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits()
	}
	c := clock.New(opts.Start)
	root := rng.New(opts.Seed)
	rec := trace.NewRecorder(c, opts.Seed)
	s := &Sim{opts: opts, clock: c, root: root, rec: rec}
	start := fmt.Sprintf("simulation start: seed=%d informerLag=%s workers rs=%d deployment=%d nodes=%d",
		opts.Seed, opts.InformerLag, opts.ReplicaSetWorkers, opts.DeploymentWorkers, len(opts.Kubelet.Nodes))
	if opts.TurnOrder != TurnAlternate {
		start += " turnOrder=" + opts.TurnOrder.String()
	}
	rec.Emit("sim", trace.Note{Message: start})

	names, faults, kubeletRand := root.Stream("apiserver"), root.Stream("informer"), root.Stream("kubelet")
	s.streams = []*rng.Stream{names, faults, kubeletRand}
	s.server = apiserver.New(c, names, rec)
	newInf := func(res apiserver.Resource, idx map[string]informer.IndexFunc, keySlots *cow.SlotTable[string]) *informer.Informer {
		return informer.New(res, s.server, c, rec, faults, informer.Config{Lag: opts.InformerLag, Indexers: idx, KeySlots: keySlots})
	}
	s.deployInf = newInf(apiserver.Deployments, nil, nil)
	s.rsInf = newInf(apiserver.ReplicaSets, map[string]informer.IndexFunc{informer.ControllerUIDIndex: informer.ControllerUIDIndexFunc}, nil)
	// The pod cache shares the server's table of pod keys.
	s.podInf = newInf(apiserver.Pods, map[string]informer.IndexFunc{informer.PodControllerIndex: informer.PodControllerIndexFunc}, s.server.KeySlots())
	s.informers = []*informer.Informer{s.deployInf, s.rsInf, s.podInf}

	s.rsc = replicaset.New(s.server, s.podInf, s.rsInf, c, rec, opts.ReplicaSet)
	s.dc = deployment.New(s.server, s.deployInf, s.rsInf, s.podInf, c, rec, opts.Deployment)
	s.controllers = []syncer{
		{name: "replicaset-controller", queue: s.rsc.Queue(), sync: s.rsc.ProcessNextWorkItem},
		{name: "deployment-controller", queue: s.dc.Queue(), sync: s.dc.ProcessNextWorkItem},
	}
	s.lastSynced = len(s.controllers) - 1
	if opts.TurnOrder == TurnRandom {
		s.turns = root.Stream("turn-order")
		s.streams = append(s.streams, s.turns) // checkpointed with the others
	}
	s.gc = gc.New(s.server, c, rec)

	// The kubelet changes its image profiles at run time: give it its own
	// map, so that Options stays what the simulation was built from.
	kcfg := opts.Kubelet
	kcfg.Images = maps.Clone(kcfg.Images)
	k, err := kubelet.New(s.server, c, kubeletRand, rec, kcfg)
	if err != nil {
		return nil, fmt.Errorf("creating nodes: %w", err)
	}
	s.kubelet = k
	s.observe()
	return s, nil
}

// Accessors for views, actions and tests. The returned components are live:
// read them, and change the cluster only through API requests.
func (s *Sim) Clock() *clock.Clock                          { return s.clock }
func (s *Sim) Recorder() *trace.Recorder                    { return s.rec }
func (s *Sim) Server() *apiserver.Server                    { return s.server }
func (s *Sim) Kubelet() *kubelet.Kubelet                    { return s.kubelet }
func (s *Sim) ReplicaSetController() *replicaset.Controller { return s.rsc }
func (s *Sim) DeploymentController() *deployment.Controller { return s.dc }
func (s *Sim) Options() Options                             { return s.opts }

// Steps returns the number of steps taken so far.
func (s *Sim) Steps() int { return s.step }

// Err returns the error that stopped the run, if any.
func (s *Sim) Err() error { return s.err }

// Now returns the current virtual time.
func (s *Sim) Now() time.Time { return s.clock.Now() }

// observe lets every log reader catch up with writes made by the last step.
func (s *Sim) observe() {
	for _, inf := range s.informers {
		inf.Observe()
	}
	s.gc.Observe()
	s.kubelet.Observe()
	for _, ev := range s.server.WatchSince(s.logCursor) {
		s.logCursor++
		if ev.Resource != apiserver.Pods {
			continue
		}
		switch ev.Type {
		case apiserver.Added:
			s.podCount++
		case apiserver.Deleted:
			s.podCount--
		}
	}
	// Every reader of the log is now at its end: drop what they all read,
	// in batches so that the log's array is not reallocated on every step.
	if len(s.server.WatchLog()) >= forgetWatchLogBatch {
		s.server.ForgetWatchLog(s.logCursor)
	}
}

// forgetWatchLogBatch is how many read watch-log entries the simulator lets
// pile up before it drops them.
const forgetWatchLogBatch = 256
