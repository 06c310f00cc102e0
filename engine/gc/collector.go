package gc

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// actor is how the collector identifies itself to the API server.
const actor = "garbage-collector"

// DefaultRetryDelay is the virtual delay before a failed item is retried.
const DefaultRetryDelay = time.Second

// Collector is the garbage collector. It is not safe for concurrent use.
type Collector struct {
	srv   *apiserver.Server
	clock *clock.Clock
	rec   *trace.Recorder
	// RetryDelay is the virtual time a failed item waits before it is
	// queued again (DefaultRetryDelay unless changed before use).
	RetryDelay time.Duration
	// cursor is the position of the next unread watch-log entry.
	cursor int
	// nodes holds every observed or virtual node by UID. A node is
	// written only when its epoch is epoch (see writable).
	nodes *cow.Map[types.UID, *node]
	// epoch is the current copy-on-write epoch, new at every checkpoint
	// and restore.
	epoch  *cow.Token
	queue  *workQueue
	absent *absentCache
	// unlinkedByRemoval is set once the removal of an owner's node has
	// unlinked a dependent (removeNode), and stays set. Until then every
	// node whose one owner reference names a kind the cluster stores is
	// linked to that owner's node (its first upsert made a virtual node
	// when there was none), so a write that keeps such an object's owner
	// references, finalizers and deletion state, or an object's with no
	// owner, leaves the graph as it was (see graphInputsKept). After it,
	// such a write may link a dependent again (to a virtual node made
	// since for the removed owner's UID), so every write goes through
	// upsert.
	unlinkedByRemoval bool
}

// New returns a collector for srv with an empty graph; call Observe to
// catch up with the watch log.
func New(srv *apiserver.Server, c *clock.Clock, rec *trace.Recorder) *Collector {
	return &Collector{
		srv: srv, clock: c, rec: rec,
		RetryDelay: DefaultRetryDelay,
		nodes:      cow.NewMap[types.UID, *node](),
		epoch:      cow.NewToken(),
		queue:      newWorkQueue(),
		absent:     newAbsentCache(),
	}
}

// HasWork reports whether an item is ready to be processed now.
func (g *Collector) HasWork() bool { return g.queue.ready(g.clock.Now()) }

// NextDue returns the earliest time a waiting (retrying) item becomes ready.
func (g *Collector) NextDue() (time.Time, bool) { return g.queue.nextDue() }

// Pending renders the ready queue in order, then the waiting items in due
// order, e.g. "attemptToDelete pods default/web-1".
func (g *Collector) Pending() []string {
	var out []string
	render := func(it item, suffix string) {
		name := string(it.uid)
		if n := g.nodes.At(it.uid); n != nil {
			name = n.ref.String()
		}
		out = append(out, it.queue.String()+" "+name+suffix)
	}
	for _, it := range g.queue.fifo {
		render(it, "")
	}
	for _, w := range g.queue.waiting {
		render(w.item, " (retry at "+clock.FormatOffset(w.due.Sub(g.clock.Start()))+")")
	}
	return out
}

func (g *Collector) emit(queue string, n *node, verdict, do string) {
	g.rec.Emit(traceSource, Action{Queue: queue, Object: n.ref.String(), Verdict: verdict, Do: do})
}

func (g *Collector) enqueue(q queueName, n *node, why string) {
	if g.queue.add(item{queue: q, uid: n.ref.UID}) {
		g.emit("graph", n, "", "enqueue "+q.String()+" ("+why+")")
	}
}

// Observe applies every new watch-log entry to the graph.
func (g *Collector) Observe() {
	for _, ev := range g.srv.WatchSince(g.cursor) {
		g.cursor++
		if ev.Type == apiserver.Deleted {
			if n := g.nodes.At(ev.Object.GetUID()); n != nil {
				g.removeNode(n)
			}
			continue
		}
		if ev.Type == apiserver.Modified && !g.unlinkedByRemoval && graphInputsKept(ev.Prev, ev.Object) {
			// Most writes are status writes that keep the metadata the
			// graph reads: upsert would find nothing to change. Skipping
			// it saves a lookup in a map of every object's node, a cache
			// miss per write in a large cluster.
			continue
		}
		g.upsert(ev.Resource, ev.Object)
	}
}

// upsert records an added or modified object.
func (g *Collector) upsert(res apiserver.Resource, obj apiserver.Object) {
	uid := obj.GetUID()
	n := g.nodes.At(uid)
	var oldOwners []metav1.OwnerReference
	wasDeleting, oldFins := false, []string(nil)
	if n == nil {
		n = &node{epoch: g.epoch} // most objects never get a dependent: no map until one does
		g.nodes.Set(uid, n)
	} else {
		n = g.writable(n)
		oldOwners = n.owners
		if !n.virtual {
			wasDeleting, oldFins = n.beingDeleted, n.finalizers
		}
	}
	n.ref = apiserver.ObjectRef{Resource: res, Namespace: obj.GetNamespace(), Name: obj.GetName(), UID: uid}
	n.virtual = false
	n.owners = obj.GetOwnerReferences()
	n.beingDeleted = obj.GetDeletionTimestamp() != nil
	n.finalizers = obj.GetFinalizers()

	g.relink(n, oldOwners)

	// Transitions into deletion with a propagation finalizer.
	startsWith := func(f string) bool {
		return n.beingDeleted && hasFinalizer(n.finalizers, f) && !(wasDeleting && hasFinalizer(oldFins, f))
	}
	if startsWith(metav1.FinalizerOrphanDependents) {
		g.enqueue(attemptToOrphan, n, "deleting with orphan")
	}
	if startsWith(metav1.FinalizerDeleteDependents) {
		n.deletingDependents = true
		for _, d := range g.sortedDependents(n) {
			g.enqueue(attemptToDelete, d, "owner deleting in foreground")
		}
		g.enqueue(attemptToDelete, n, "deleting in foreground")
	}
}

// relink updates the owner links of n, whose owner references were
// oldOwners before this write: removed references are dropped (enqueueing
// the owner, which may have been waiting for this dependent), new ones
// are added.
func (g *Collector) relink(n *node, oldOwners []metav1.OwnerReference) {
	uid := n.ref.UID
	// Owner lists are short (usually one controller): they are searched
	// in place rather than indexed in maps.
	// A single reference kept as it was (the same slice: most writes
	// share their owner references with the version before) has neither
	// been removed nor unblocked, so that pass has nothing to do.
	unchangedOwner := len(oldOwners) == 1 && len(n.owners) == 1 && &oldOwners[0] == &n.owners[0]
	if unchangedOwner && n.linked {
		return // still in its one owner's dependents: nothing to link either
	}
	n.linked = false
	for _, r := range oldOwners {
		if unchangedOwner {
			break
		}
		nr, still := lastOwnerRef(n.owners, r.UID)
		owner := g.nodes.At(r.UID)
		if owner == nil {
			continue
		}
		switch {
		case !still:
			g.writable(owner).dependents.Delete(uid)
			g.enqueue(attemptToDelete, owner, "ownerReference removed from "+n.ref.String())
		case r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion && (nr.BlockOwnerDeletion == nil || !*nr.BlockOwnerDeletion):
			g.enqueue(attemptToDelete, owner, "unblocked by "+n.ref.String())
		}
	}
	for _, r := range n.owners {
		owner := g.nodes.At(r.UID)
		if _, before := lastOwnerRef(oldOwners, r.UID); owner == nil && before {
			continue // an unchanged reference to an owner already gone
		}
		if owner == nil {
			res, ok := apiserver.ResourceForKind(r.Kind)
			if !ok {
				continue // a kind this cluster does not store
			}
			ns := n.ref.Namespace
			if !res.Namespaced() {
				ns = ""
			}
			owner = &node{
				ref:        apiserver.ObjectRef{Resource: res, Namespace: ns, Name: r.Name, UID: r.UID},
				dependents: cow.NewMap[types.UID, struct{}](),
				virtual:    true,
				epoch:      g.epoch,
			}
			g.nodes.Set(r.UID, owner)
			g.enqueue(attemptToDelete, owner, "virtual owner of "+n.ref.String())
		}
		owner = g.writable(owner)
		if owner.dependents == nil {
			owner.dependents = cow.NewMap[types.UID, struct{}]()
		}
		owner.dependents.Set(uid, struct{}{})
		n.linked = len(n.owners) == 1
	}
}

// removeNode handles a deleted object (observed or virtual): its dependents
// are enqueued, it is remembered as absent if it had any, and owners waiting
// for it in foreground are enqueued.
func (g *Collector) removeNode(n *node) {
	g.nodes.Delete(n.ref.UID)
	deps := g.sortedDependents(n)
	if len(deps) > 0 {
		g.absent.add(absentKey{namespace: n.ref.Namespace, uid: n.ref.UID})
	}
	for _, d := range deps {
		if d != n {
			g.writable(d).linked = false // its owner's node is gone
			g.unlinkedByRemoval = true
		}
		g.enqueue(attemptToDelete, d, "owner "+n.ref.String()+" deleted")
	}
	for _, r := range n.owners {
		owner := g.nodes.At(r.UID)
		if owner == nil {
			continue
		}
		g.writable(owner).dependents.Delete(n.ref.UID)
		if owner.deletingDependents {
			g.enqueue(attemptToDelete, owner, "dependent "+n.ref.String()+" deleted")
		}
	}
}

// lastOwnerRef returns the last reference in refs to the owner uid, if any
// (the one a map of refs by UID would keep).
func lastOwnerRef(refs []metav1.OwnerReference, uid types.UID) (metav1.OwnerReference, bool) {
	for i := len(refs) - 1; i >= 0; i-- {
		if refs[i].UID == uid {
			return refs[i], true
		}
	}
	return metav1.OwnerReference{}, false
}

// graphInputsKept reports whether obj, which replaced prev, keeps what the
// graph holds of it, and whether upsert would then find nothing to do:
// the same owner references and finalizers (the same slices: a write that
// shares them with the version before cannot have changed them), the same
// deletion state, and no owner reference or a single one to a kind the
// cluster stores (see unlinkedByRemoval). Other references are left to
// upsert: a reference to a kind the cluster does not store has no node,
// and a later virtual node for its UID (made by another object's reference
// to a stored kind) takes the object in at its next write; several
// references can name one UID, whose comparison on every write may queue
// the owner. The object's UID, name and namespace never change.
func graphInputsKept(prev, obj apiserver.Object) bool {
	if prev == nil {
		return false
	}
	owners := obj.GetOwnerReferences()
	if len(owners) > 1 {
		return false
	}
	if len(owners) == 1 {
		if _, stored := apiserver.ResourceForKind(owners[0].Kind); !stored {
			return false
		}
	}
	return sameSlice(prev.GetOwnerReferences(), owners) &&
		sameSlice(prev.GetFinalizers(), obj.GetFinalizers()) &&
		(prev.GetDeletionTimestamp() == nil) == (obj.GetDeletionTimestamp() == nil)
}

// sameSlice reports whether a and b are the same slice: both empty, or the
// same length starting at the same element.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
