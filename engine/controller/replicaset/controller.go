package replicaset

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/controller/events"
	"github.com/rolloutlab/rolloutlab/engine/expectations"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/engine/workqueue"
)

// podControl is the part of the API server that creates and deletes pods
// (upstream's PodControlInterface). New sets it to the server; tests wrap it
// to inject failures. CreatePod neither keeps nor changes p (the server
// stores a copy): a scale-up sends one body for all its creates.
type podControl interface {
	CreatePod(actor string, p *corev1.Pod) (*corev1.Pod, error)
	DeletePod(actor, ns, name string, opts apiserver.DeleteOptions) error
}

// Controller is the ReplicaSet controller.
type Controller struct {
	server *apiserver.Server
	// podControl creates and deletes pods; the server itself outside tests.
	podControl podControl
	// pods and replicaSets are the shared informers; their stores are
	// read-only here.
	pods        *informer.Informer
	replicaSets *informer.Informer
	clock       *clock.Clock
	rec         *trace.Recorder
	cfg         Config
	queue       *workqueue.Queue
	// expectations gate manageReplicas per ReplicaSet key.
	expectations *expectations.Store
	// consistency is the stale-cache gate's record of this controller's own
	// writes; consulted only when cfg.StaleCacheGate.
	consistency *expectations.ConsistencyStore
	// staleSkips is replicaset_controller_stale_sync_skips_total.
	staleSkips int
	// events creates Kubernetes Events about ReplicaSets.
	events *events.Recorder
	// walkAlways makes every sync walk its pods instead of reading the
	// group counts; tests set it to compare the two.
	walkAlways bool
	// onPath, when set (tests only; wiring, not state), is told which way
	// each fast-path decision went (see the path constants).
	onPath func(path string)
	// scratch lends a sync its pod lists and ranking arrays (not state:
	// see syncScratch).
	scratch syncScratch
}

// The fast-path decisions onPath reports.
const (
	pathTallied      = "tallied"       // a sync read the group counts
	pathWalked       = "walked"        // a sync walked the pods
	pathGroupsProved = "groups-proved" // related pods counted from groups
	pathGroupsWalked = "groups-walked" // related pods walked instead
)

// took reports a fast-path decision to onPath.
func (rc *Controller) took(path string) {
	if rc.onPath != nil {
		rc.onPath(path)
	}
}

// New returns a controller reading from the pod and ReplicaSet informers
// and writing through server. It registers its handlers on both informers.
func New(server *apiserver.Server, pods, replicaSets *informer.Informer, c *clock.Clock, rec *trace.Recorder, cfg Config) *Controller {
	if cfg.BurstReplicas <= 0 {
		cfg.BurstReplicas = DefaultBurstReplicas
	}
	rc := &Controller{
		server:       server,
		podControl:   server,
		pods:         pods,
		replicaSets:  replicaSets,
		clock:        c,
		rec:          rec,
		cfg:          cfg,
		queue:        workqueue.New(QueueName, c, rec, ControllerName, workqueue.DefaultControllerRateLimiter()),
		expectations: expectations.NewStore(c),
		consistency:  expectations.NewConsistencyStore(),
		events:       events.New(server, c, rec, ControllerName),
	}
	// Syncs whose claim changes nothing read the owner index's pod counts
	// (see tally); a pod informer without that index makes every sync walk
	// its pods.
	pods.Store().Summarize(informer.PodControllerIndex, classifyPod)
	replicaSets.AddHandler(informer.Handler{Name: ControllerName, OnAdd: rc.addRS, OnUpdate: rc.updateRS, OnDelete: rc.deleteRS})
	pods.AddHandler(informer.Handler{Name: ControllerName, OnAdd: rc.addPod, OnUpdate: rc.updatePod, OnDelete: rc.deletePod})
	return rc
}

// Queue returns the controller's workqueue.
func (rc *Controller) Queue() *workqueue.Queue { return rc.queue }

// Expectations returns the controller's expectations store.
func (rc *Controller) Expectations() *expectations.Store { return rc.expectations }

// Consistency returns the stale-cache gate's store.
func (rc *Controller) Consistency() *expectations.ConsistencyStore { return rc.consistency }

// StaleSyncSkips returns replicaset_controller_stale_sync_skips_total
// {group="apps",resource="replicasets"}: syncs refused by the gate.
func (rc *Controller) StaleSyncSkips() int { return rc.staleSkips }

// ProcessNextWorkItem runs one worker iteration: it takes the next ready
// key, syncs it, forgets it on success or re-adds it rate-limited on error
// (forever: ReplicaSet keys have no retry limit), and marks it done. ok is
// false, and nothing happens, when no key is ready.
func (rc *Controller) ProcessNextWorkItem() (key string, ok bool) {
	key, reasons, ok := rc.queue.Get()
	if !ok {
		return "", false
	}
	rc.emit(SyncStarted{Key: key, Reasons: reasons})
	availability, err := rc.syncReplicaSet(key)
	end := SyncFinished{Key: key, OK: err == nil, AvailabilityCheck: availability}
	if err == nil {
		rc.queue.Forget(key)
	} else {
		rc.queue.AddRateLimited(key, "sync error: "+err.Error())
		end.Error = err.Error()
		end.Retry = rc.queue.NumRequeues(key)
	}
	rc.queue.Done(key)
	rc.emit(end)
	return key, true
}

func (rc *Controller) emit(p trace.Payload) {
	if rc.rec != nil {
		rc.rec.Emit(ControllerName, p)
	}
}

// enqueue adds rs's key with reason.
func (rc *Controller) enqueue(rs *appsv1.ReplicaSet, reason string) {
	rc.queue.Add(keyOf(rs.Namespace, rs.Name), reason)
}

// keyOf is the cache and queue key "ns/name".
func keyOf(ns, name string) string { return ns + "/" + name }
