package kubelet

import (
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// stage is where a pod is in its lifecycle, as the model tracks it.
type stage uint8

const (
	// stagePending: created, not bound to a node yet.
	stagePending stage = iota
	// stageBound: bound, containers starting.
	stageBound
	// stageRunning: containers running, not ready.
	stageRunning
	// stageReady: running and ready.
	stageReady
	// stageCrashed: container exited, waiting out its back-off.
	stageCrashed
	// stageTerminating: deletion requested, containers stopping.
	stageTerminating
)

// podState is the model's record of one pod.
type podState struct {
	key  string
	uid  types.UID
	node string
	// image is the first container's image; it selects the profile.
	image string
	stage stage
	// placed is set while the pod is counted in its node's pods (place,
	// unplace): a pod that never was (a pasted pod that had finished) is
	// not uncounted when it goes.
	placed bool
	// anti is set when the pod has required anti-affinity on the node
	// topology (antiaffinity.go); counted in its node's antiPods.
	anti bool
	// waitsForPods is set when the pod's last try to schedule found every
	// ready node excluded by anti-affinity: a pod leaving a node retries it,
	// and so does a relabel of a bound pod its rule selected (retryAfterRelabel).
	waitsForPods bool
	// gen increases whenever a new transition is scheduled; older timers
	// for this pod are stale.
	gen uint64
	// restarts is the container restart count.
	restarts int32
	// slot is key's slot in slots, the slot table the pods map was on
	// when the state was added: the kubelet reads its pod from the
	// server's table of pods by slot (storedPod), not by key, while the
	// server is on that table. Layout, not state: a replay and a restore
	// may number the same key differently. (An int32 beside restarts: the
	// two fill one word.)
	slot  int32                  `statediff:"skip"`
	slots *cow.SlotTable[string] `statediff:"skip"`
	// readiness and liveness are the first container's probes; nil when it
	// has none.
	readiness, liveness *probe
	// readyAt, unreadyAt and killAt are the probe outcomes due in the
	// current container run (zero: none); see probes.go.
	readyAt, unreadyAt, killAt time.Time
	// grace is the pod's termination grace period.
	grace time.Duration
	// epoch is the Kubelet epoch the state was made in; a state of an
	// earlier one may be shared with a checkpoint and is copied before it
	// is written (Kubelet.writable).
	epoch *cow.Token
	// gone is set when the pod is forgotten (deletePod) while this state
	// is of the current epoch; a state of an earlier epoch is never
	// written, so its timers look the pod up (and addPod, replacing a
	// state, starts a new epoch instead).
	gone bool
}

// nodeState is the model's record of one node.
type nodeState struct {
	name  string
	ready bool
	// gen increases on every failure or recovery, invalidating node timers.
	gen uint64
	// marked is set once the node lifecycle controller has marked the
	// failed node and its pods NotReady (NodeMonitorGracePeriod after the
	// failure); a node that recovers before that was never seen down.
	marked bool
	// pods counts pods bound to the node (for spreading).
	pods int
	// antiPods counts the pods bound to the node that have required
	// anti-affinity on the node topology; while it is 0 a pod without
	// such a rule needs no check against the node's pods.
	antiPods int
}

// Kubelet is the scheduler, kubelet and node lifecycle model.
type Kubelet struct {
	server *apiserver.Server
	clock  *clock.Clock
	rand   *rng.Stream
	rec    *trace.Recorder
	cfg    Config
	// cursor is the next watch-log position to read.
	cursor int
	// pods holds every pod the model knows, by "ns/name". A state is
	// written only when its epoch is epoch (see writable). Invariant: a
	// state of the current epoch is in pods unless it is gone. A
	// checkpoint shares the map (cow.Map). It is on the slot table of the
	// server's table of pods (apiserver.Server.KeySlots).
	pods *cow.Map[string, *podState]
	// epoch is the current copy-on-write epoch, new at every checkpoint
	// and restore.
	epoch *cow.Token
	// nodes by name; nodeOrder is their names in configuration order.
	nodes     map[string]*nodeState
	nodeOrder []string
	timers    timerHeap
	seq       uint64
	// unschedulable holds the pending pods that found no node (none
	// ready, or anti-affinity excluded every ready one), in order.
	unschedulable []string
}

// New creates the model and registers the configured nodes with the API
// server.
func New(server *apiserver.Server, c *clock.Clock, r *rng.Stream, rec *trace.Recorder, cfg Config) (*Kubelet, error) {
	k := &Kubelet{server: server, clock: c, rand: r, rec: rec, cfg: cfg, pods: cow.NewMapOn[string, *podState](server.KeySlots()), nodes: map[string]*nodeState{}, epoch: cow.NewToken()}
	for _, name := range cfg.Nodes {
		node := &corev1.Node{}
		node.Name = name
		node.Labels = map[string]string{"kubernetes.io/hostname": name}
		node.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", LastTransitionTime: nowMeta(c)}}
		if _, err := server.CreateNode("kubelet", node); err != nil {
			return nil, err
		}
		k.nodes[name] = &nodeState{name: name, ready: true}
		k.nodeOrder = append(k.nodeOrder, name)
	}
	return k, nil
}

// Config returns the model's configuration.
func (k *Kubelet) Config() *Config { return &k.cfg }

// SetImageProfile changes how an image behaves from now on: new containers
// and restarts use the new profile.
func (k *Kubelet) SetImageProfile(image string, p ImageProfile) {
	if k.cfg.Images == nil {
		k.cfg.Images = map[string]ImageProfile{}
	}
	k.cfg.Images[image] = p
	k.emit(Transition{Image: image, What: "image-profile", Detail: p.Summary()})
}

func (k *Kubelet) schedule(at time.Time, act action, key string, gen uint64, pod *podState) {
	k.seq++
	k.timers.push(timer{due: at.Sub(k.clock.Start()), seq: k.seq, act: act, key: key, gen: gen, pod: pod})
}

func (k *Kubelet) schedulePod(p *podState, after time.Duration, act action) {
	p.gen++
	k.schedule(k.clock.Now().Add(after), act, p.key, p.gen, p)
}

// writable returns the state of p's pod that may be written: p itself when
// it was made in the current epoch, otherwise a copy of it made in this
// one, which replaces it in pods (p may be shared with a checkpoint).
func (k *Kubelet) writable(p *podState) *podState {
	if p.epoch == k.epoch {
		return p
	}
	c := *p
	c.epoch = k.epoch
	k.pods.Set(c.key, &c)
	return &c
}

// addPod makes p, a new state of the current epoch, the state of its pod.
// The watch log deletes a pod before a pod of the same name is added, so
// there is normally no state to replace; if there was one, a new epoch
// makes every timer look its pod up (valid), as the replaced state cannot
// be marked gone without a lookup of its own.
func (k *Kubelet) addPod(p *podState) {
	if !k.pods.Set(p.key, p) {
		k.epoch = cow.NewToken()
		p.epoch = k.epoch
	}
	// The key has a slot on the map's table now (the server's table of
	// pods gave it one when the pod was created).
	slot, _ := k.pods.SlotOf(p.key)
	p.slot, p.slots = int32(slot), k.pods.SlotTable()
}

// deletePod forgets p's pod; p is its current state.
func (k *Kubelet) deletePod(p *podState) {
	if p.epoch == k.epoch {
		p.gone = true
	}
	k.pods.Delete(p.key)
}

// NextDue returns when the next valid transition is due.
func (k *Kubelet) NextDue() (time.Time, bool) {
	k.dropStale()
	if len(k.timers) == 0 {
		return time.Time{}, false
	}
	return k.clock.Start().Add(k.timers[0].due), true
}

// valid reports whether t is still current; for a pod action it also
// returns the pod, so the caller need not look it up again.
func (k *Kubelet) valid(t timer) (*podState, bool) {
	switch t.act {
	case actNodeNotReady, actNodeEvict:
		n := k.nodes[t.key]
		return nil, n != nil && n.gen == t.gen && !n.ready
	}
	// A timer is current when its pod's state is the one it was scheduled
	// with, or a copy of it (writable), and the generation still matches.
	// The state it was scheduled with answers without a lookup in pods (a
	// cache miss at 10,000 pods) while it is of the current epoch: then it
	// is the pod's state unless gone. An older one may have been replaced
	// by a copy since: look the pod up. The UID keeps a timer of a deleted
	// pod from firing for a new pod of the same name whose generation has
	// reached the timer's.
	if p := t.pod; p.epoch == k.epoch {
		return p, !p.gone && p.gen == t.gen
	}
	p := k.pods.At(t.key)
	return p, p != nil && p.uid == t.pod.uid && p.gen == t.gen
}

// dropStale pops stale timers until the earliest one is current, and
// returns that timer's pod (nil for a node action or an empty heap).
func (k *Kubelet) dropStale() *podState {
	for len(k.timers) > 0 {
		if p, ok := k.valid(k.timers[0]); ok {
			return p
		}
		k.timers.pop()
	}
	return nil
}

// Step performs the earliest transition if it is due now and reports
// whether it did.
func (k *Kubelet) Step() bool {
	p := k.dropStale()
	if len(k.timers) == 0 || k.timers[0].due > k.clock.Elapsed() {
		return false
	}
	t := k.timers.pop()
	switch t.act {
	case actNodeNotReady:
		k.markNodePodsNotReady(t.key)
	case actNodeEvict:
		k.evictNodePods(t.key)
	default:
		k.firePod(t.act, k.writable(p)) // the pod valid found: k.pods[t.key]
	}
	return true
}

// Observe reads pod events written since the last call and schedules the
// transitions they call for.
func (k *Kubelet) Observe() {
	for _, ev := range k.server.WatchSince(k.cursor) {
		k.cursor++
		if ev.Resource != apiserver.Pods {
			continue
		}
		pod, ok := ev.Object.(*corev1.Pod)
		if !ok {
			continue
		}
		// ev.Key is the server's key of the pod: a new pod keeps it.
		switch ev.Type {
		case apiserver.Added:
			k.podAdded(ev.Key, pod)
		case apiserver.Modified:
			if len(k.unschedulable) > 0 {
				// A pod being deleted counts with its labels until it is
				// gone: its relabel may free a node too.
				if prev, ok := ev.Prev.(*corev1.Pod); ok {
					k.retryAfterRelabel(prev, pod)
				}
			}
			if pod.DeletionTimestamp == nil {
				continue
			}
			if p := k.pods.At(ev.Key); p != nil && p.uid == pod.UID && p.stage != stageTerminating {
				k.podTerminating(k.writable(p), pod)
			}
		case apiserver.Deleted:
			if p := k.pods.At(ev.Key); p != nil && p.uid == pod.UID {
				wasOnNode := p.placed
				k.unplace(p)
				k.deletePod(p)
				// The pods that anti-affinity kept off every node try again
				// when one leaves a node.
				if wasOnNode {
					k.retryWaitingForPods(nil)
				}
			}
		}
	}
}

func (k *Kubelet) podAdded(key string, pod *corev1.Pod) {
	p := &podState{key: key, uid: pod.UID, node: pod.Spec.NodeName, grace: 30 * time.Second, epoch: k.epoch}
	if len(pod.Spec.Containers) > 0 {
		c := pod.Spec.Containers[0]
		p.image = c.Image
		p.readiness, p.liveness = probeOf(c.ReadinessProbe), probeOf(c.LivenessProbe)
	}
	p.anti = len(hostnameAntiAffinity(pod)) > 0
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		p.grace = time.Duration(*pod.Spec.TerminationGracePeriodSeconds) * time.Second
	}
	k.addPod(p)
	if pod.DeletionTimestamp != nil {
		// A pasted pod being deleted still occupies its node until it is gone.
		if p.node != "" {
			k.place(p, p.node)
		}
		k.podTerminating(p, pod)
		return
	}
	if k.resumeRestored(p, pod) {
		return
	}
	if p.node != "" {
		p.stage = stageBound
		k.place(p, p.node)
		k.schedulePod(p, k.startDelay(p), actStart)
		return
	}
	k.schedulePod(p, k.cfg.ScheduleDelay, actBind)
}

func (k *Kubelet) podTerminating(p *podState, pod *corev1.Pod) {
	p.stage = stageTerminating
	if n := k.nodes[p.node]; n != nil && !n.ready {
		// The node is gone: nobody confirms the shutdown, so the pod stays
		// Terminating until the node returns.
		p.gen++
		return
	}
	wait := k.cfg.ShutdownDelay
	if p.grace < wait {
		wait = p.grace
	}
	if pod.DeletionTimestamp != nil {
		if until := pod.DeletionTimestamp.Time.Sub(k.clock.Now()); until < wait {
			wait = until
		}
	}
	if wait < 0 {
		wait = 0
	}
	k.schedulePod(p, wait, actTerminate)
}

func (k *Kubelet) startDelay(p *podState) time.Duration {
	prof := k.cfg.Profile(p.image)
	return k.rand.Jitter(prof.StartDelay, prof.Jitter)
}

// readyDelay draws the time from running to the application answering.
func (k *Kubelet) readyDelay(p *podState) time.Duration {
	prof := k.cfg.Profile(p.image)
	return k.rand.Jitter(prof.ReadyDelay, prof.Jitter)
}

// pickNodeFor returns the ready node with the fewest pods (the first in
// configuration order of those) that anti-affinity does not exclude pod
// from (see antiaffinity.go); "" when there is none, with the PodScheduled
// message that says why when anti-affinity excluded some ("" when no node
// is ready at all, which the model has always left without a message).
func (k *Kubelet) pickNodeFor(p *podState, pod *corev1.Pod) (best, why string) {
	var excluded map[string]exclusion
	if p.anti || k.antiPodsPlaced() {
		excluded = k.exclusions(pod, p.anti)
	}
	own, existing, notReady := 0, 0, 0
	for _, name := range k.nodeOrder {
		n := k.nodes[name]
		if !n.ready {
			notReady++
			continue
		}
		switch excluded[name] {
		case byOwnRule:
			own++
			continue
		case byExistingRule:
			existing++
			continue
		}
		if best == "" || n.pods < k.nodes[best].pods {
			best = name
		}
	}
	if best == "" && own+existing > 0 {
		why = unschedulableMessage(len(k.nodeOrder), own, existing, notReady)
	}
	return best, why
}

// antiPodsPlaced reports whether a pod with required anti-affinity on the
// node topology is bound to any node.
func (k *Kubelet) antiPodsPlaced() bool {
	for _, n := range k.nodes {
		if n.antiPods > 0 {
			return true
		}
	}
	return false
}

// place counts p as bound to node (once).
func (k *Kubelet) place(p *podState, node string) {
	if n := k.nodes[node]; n != nil && !p.placed {
		p.placed = true
		n.pods++
		if p.anti {
			n.antiPods++
		}
	}
}

// unplace uncounts p, a pod about to be forgotten, from its node, if it
// was counted there (p itself is left as it is: it is dropped).
func (k *Kubelet) unplace(p *podState) {
	if n := k.nodes[p.node]; n != nil && p.placed {
		n.pods--
		if p.anti {
			n.antiPods--
		}
	}
}

// retryWaitingForPods schedules another try for the pending pods that
// anti-affinity kept off every node, as the scheduler moves them back to
// its active queue when an assigned pod is deleted. With may set, only the
// waiting pods it accepts (their stored objects) try again.
func (k *Kubelet) retryWaitingForPods(may func(waiting *corev1.Pod) bool) {
	if len(k.unschedulable) == 0 {
		return
	}
	kept := k.unschedulable[:0:0]
	for _, key := range k.unschedulable {
		p := k.pods.At(key)
		if p == nil {
			continue // gone while it waited
		}
		if p.node == "" && p.waitsForPods && p.stage != stageTerminating && k.mayRetry(p, may) {
			w := k.writable(p)
			w.waitsForPods = false
			k.schedulePod(w, k.cfg.ScheduleDelay, actBind)
			continue
		}
		kept = append(kept, key)
	}
	k.unschedulable = kept
}

// mayRetry reports whether may (nil: any) accepts the waiting pod p.
func (k *Kubelet) mayRetry(p *podState, may func(*corev1.Pod) bool) bool {
	if may == nil {
		return true
	}
	pod, ok := k.storedPod(p)
	return ok && may(pod)
}

// NodeNames returns the nodes in configuration order.
func (k *Kubelet) NodeNames() []string { return append([]string(nil), k.nodeOrder...) }

// NodeReady reports whether the named node is ready.
func (k *Kubelet) NodeReady(name string) bool {
	n := k.nodes[name]
	return n != nil && n.ready
}

// sortedPodKeysOnNode returns the keys of pods bound to node, sorted.
func (k *Kubelet) sortedPodKeysOnNode(node string) []string {
	var keys []string
	k.pods.Range(func(key string, p *podState) bool {
		if p.node == node {
			keys = append(keys, key)
		}
		return true
	})
	sort.Strings(keys)
	return keys
}
