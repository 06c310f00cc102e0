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
	at  time.Time
	seq uint64
	act action
	// key and gen identify the pod and its state generation; a timer whose
	// gen no longer matches the pod's is stale and skipped. For node
	// actions, key is the node name and gen the node's failure generation.
	key string
	gen uint64
}

// timerHeap orders timers by time, then by scheduling order: a binary
// min-heap kept by push and pop (container/heap's algorithm, without
// boxing every timer in an interface).
type timerHeap []timer

// less orders timers by time, then by scheduling order, with one Compare
// instead of Equal then Before: the browser's wasm is built
// without inlining, where each time.Time method is a call and less was 2.2%
// of a js/wasm rewind replay (node CPU profile of BenchmarkSeek at 100k
// steps).
func (h timerHeap) less(i, j int) bool {
	if c := h[i].at.Compare(h[j].at); c != 0 {
		return c < 0
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
	for {
		i := (j - 1) / 2 // parent
		if i == j || !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

// down moves the timer at i towards the leaves (within the first n)
// until neither child is earlier.
func (h timerHeap) down(i, n int) {
	for {
		j := 2*i + 1
		if j >= n || j < 0 {
			break
		}
		if r := j + 1; r < n && h.less(r, j) {
			j = r
		}
		if !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
