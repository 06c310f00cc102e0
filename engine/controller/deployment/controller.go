package deployment

import (
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/controller/events"
	"github.com/rolloutlab/rolloutlab/engine/informer"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/engine/workqueue"
)

// maxRetries is how many times a failing Deployment key is requeued before
// it is dropped (upstream's maxRetries).
const maxRetries = 15

// queueName is the workqueue's name, as upstream.
const queueName = "deployment"

// Controller is the Deployment controller. It is not safe for concurrent use;
// the engine is single-threaded.
type Controller struct {
	// server receives every write and the two live reads (CanAdopt GET and
	// the Recreate pod-delete LIST).
	server *apiserver.Server
	// dInformer, rsInformer and podInformer are the caches every other read
	// comes from. Their objects are shared: DeepCopy before changing.
	dInformer, rsInformer, podInformer *informer.Informer
	clock                              *clock.Clock
	rec                                *trace.Recorder
	// queue holds "namespace/name" Deployment keys.
	queue *workqueue.Queue
	cfg   Config
	// path is the branch the current sync took; reset at every sync start
	// and reported in SyncFinished.
	path string
	// events creates Kubernetes Events about Deployments.
	events *events.Recorder
	// templates remembers which ReplicaSet templates equal which
	// Deployment templates (see templateMatches). Snapshot: yes.
	templates templateMatches
}

// New builds the controller and registers its handlers: Deployment add,
// update, delete; ReplicaSet add, update, delete; pod delete (BEHAVIOR §4.1).
// The pod informer must carry informer.PodControllerIndex.
func New(server *apiserver.Server, deployments, replicaSets, pods *informer.Informer, c *clock.Clock, rec *trace.Recorder, cfg Config) *Controller {
	dc := &Controller{
		server:      server,
		dInformer:   deployments,
		rsInformer:  replicaSets,
		podInformer: pods,
		clock:       c,
		rec:         rec,
		cfg:         cfg,
		queue:       workqueue.New(queueName, c, rec, source, workqueue.DefaultControllerRateLimiter()),
		events:      events.New(server, c, rec, source),
	}
	deployments.AddHandler(informer.Handler{
		Name:     source,
		OnAdd:    dc.addDeployment,
		OnUpdate: dc.updateDeployment,
		OnDelete: dc.deleteDeployment,
	})
	replicaSets.AddHandler(informer.Handler{
		Name:     source,
		OnAdd:    dc.addReplicaSet,
		OnUpdate: dc.updateReplicaSet,
		OnDelete: dc.deleteReplicaSet,
	})
	pods.AddHandler(informer.Handler{
		Name:     source,
		OnDelete: dc.deletePod,
	})
	return dc
}

// Queue returns the controller's workqueue (the simulator promotes delayed
// keys and shows its state).
func (dc *Controller) Queue() *workqueue.Queue { return dc.queue }

// ProcessNextWorkItem runs one worker iteration: take the next ready key,
// sync it, let handleErr forget or requeue it, and mark it done. ok is false
// when no key is ready.
func (dc *Controller) ProcessNextWorkItem() (key string, ok bool) {
	key, reasons, ok := dc.queue.Get()
	if !ok {
		return "", false
	}
	dc.path = ""
	dc.emit(SyncStarted{Key: key, Reasons: reasons})
	err := dc.syncDeployment(key)
	dc.handleErr(key, err)
	dc.queue.Done(key)
	return key, true
}

// handleErr is upstream's handleErr (BEHAVIOR §4.2): success or a
// namespace-terminating failure forgets the key; otherwise the key is
// requeued rate-limited while it has fewer than maxRetries requeues, and
// dropped after that.
func (dc *Controller) handleErr(key string, err error) {
	fin := SyncFinished{Key: key, Path: dc.path}
	switch {
	case err == nil:
		dc.queue.Forget(key)
		fin.Result = ResultOK
	case apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
		dc.queue.Forget(key)
		fin.Result, fin.Error = ResultNamespaceTerminating, err.Error()
	case dc.queue.NumRequeues(key) < maxRetries:
		dc.queue.AddRateLimited(key, "sync error: "+err.Error())
		fin.Result, fin.Error, fin.Requeues = ResultRetry, err.Error(), dc.queue.NumRequeues(key)
	default:
		dc.queue.Forget(key)
		fin.Result, fin.Error = ResultDropped, err.Error()
	}
	dc.emit(fin)
}

// emit records p under the controller's source.
func (dc *Controller) emit(p trace.Payload) { dc.rec.Emit(source, p) }

// setPath records the branch syncDeployment takes.
func (dc *Controller) setPath(key, path, why string) {
	dc.path = path
	dc.emit(PathDecision{Key: key, Path: path, Why: why})
}
