package kubelet

import "time"

// action is what a timer does when it fires.
type action uint8

const (
	// actBind binds a pending pod to a node (scheduler).
	actBind action = iota + 1
	// actStart starts a bound pod's containers.
	actStart
	// actReady marks a running pod ready (readiness probe passed).
	actReady
	// actCrash makes a crash-looping container exit.
	actCrash
	// actRestart restarts a crashed container after its back-off.
	actRestart
	// actTerminate removes a terminating pod once its containers stopped.
	actTerminate
	// actNodeNotReady marks the pods of a failed node NotReady.
	actNodeNotReady
	// actNodeEvict deletes the pods of a node that stayed failed.
	actNodeEvict
	// actUnready marks a ready pod NotReady (readiness probe failing).
	actUnready
	// actLivenessKill kills a container whose liveness probe failed.
	actLivenessKill
)

var actionNames = [...]string{
	actBind: "bind", actStart: "start", actReady: "ready", actCrash: "crash",
	actRestart: "restart", actTerminate: "terminate", actNodeNotReady: "node-not-ready", actNodeEvict: "node-evict",
	actUnready: "unready", actLivenessKill: "liveness-kill",
}

// String names the action.
func (a action) String() string {
	if int(a) < len(actionNames) && actionNames[a] != "" {
		return actionNames[a]
	}
	return "unknown"
}

// timer is one scheduled transition.
type timer struct {
	// due is when it fires, as an offset from the clock's start (see
	// Kubelet.schedule): a plain integer compares in one instruction,
	// where a time.Time is three words compared field by field, and the
	// timer is 16 bytes smaller (the heap holds one per pod, and every
	// checkpoint copies it).
	due time.Duration
	seq uint64
	// key and gen identify the pod and its state generation; a timer whose
	// gen no longer matches the pod's is stale and skipped. For node
	// actions, key is the node name and gen the node's failure generation.
	key string
	gen uint64
	// pod is the state the pod action was scheduled with (nil for a node
	// action); see Kubelet.valid. It stands for the pod's identity (its
	// UID) and saves a lookup; what it points to may be an old state, so
	// comparisons of whole models skip it (the tag).
	pod *podState `statediff:"skip"`
	act action
}

// timerHeap orders timers by due time, then by scheduling order (seq is
// unique, so the order is total and the pops are the same whatever the
// heap's shape): a 4-ary min-heap kept by push and pop. Four children per
// node make it half as deep as a binary heap: at 10,000 pods a pop moves
// a timer down 7 levels instead of 14, each a cache miss at that size,
// comparing 4 adjacent siblings (224 bytes, 4 or 5 cache lines read in
// order) instead of 2.
type timerHeap []timer

// heapArity is the number of children per node.
const heapArity = 4

func (h timerHeap) less(i, j int) bool {
	if h[i].due != h[j].due {
		return h[i].due < h[j].due
	}
	return h[i].seq < h[j].seq
}

// push adds t.
func (h *timerHeap) push(t timer) {
	*h = append(*h, t)
	h.up(len(*h) - 1)
}

// pop removes and returns the first timer; the heap must not be empty.
func (h *timerHeap) pop() timer {
	old := *h
	n := len(old) - 1
	old[0], old[n] = old[n], old[0]
	old.down(0, n)
	t := old[n]
	old[n] = timer{} // drop the key string
	*h = old[:n]
	return t
}

// up moves the timer at j towards the root until its parent is not later.
func (h timerHeap) up(j int) {
	for j > 0 {
		i := (j - 1) / heapArity // parent
		if !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

// down moves the timer at i towards the leaves (within the first n)
// until none of its children is earlier.
func (h timerHeap) down(i, n int) {
	for {
		first := heapArity*i + 1
		if first >= n || first < 0 {
			break
		}
		j := first // the earliest child
		for c := first + 1; c < min(first+heapArity, n); c++ {
			if h.less(c, j) {
				j = c
			}
		}
		if !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
