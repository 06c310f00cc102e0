package kubelet

import (
	"container/heap"
	"time"
)

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

// timerHeap orders timers by time, then by scheduling order.
type timerHeap []timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}

var _ heap.Interface = (*timerHeap)(nil)
