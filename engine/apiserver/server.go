package apiserver

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// traceSource is the trace source of every API request record.
const traceSource = "apiserver"

// Server is the in-memory API server. It is not safe for concurrent use.
type Server struct {
	clock *clock.Clock
	// names draws UIDs and generated-name suffixes.
	names *rng.Stream
	rec   *trace.Recorder
	// rv is the last resourceVersion handed out; every stored change takes
	// rv+1.
	rv uint64
	// tables holds one table per watched resource (events excluded).
	tables map[Resource]*table
	// events are stored in creation order, compactly (storedEvent).
	// Snapshot: yes (the chunk headers).
	events eventLog
	// eventKeys indexes the events by namespace and name. Snapshot: no
	// (see eventIndex; a restored server's may hold other stale entries
	// than one that replayed, and finds the same events).
	eventKeys eventIndex `statediff:"skip"`
	// eventPatches holds the current version of every event patched since
	// it was stored (an event recorder counting a repeated or combined
	// Event), by the event's index in events, whose entry stays the
	// version first stored: events are only appended, and few are ever
	// patched. Snapshot: yes (a copy).
	eventPatches map[int]*storedEvent
	owners       ownerIndex
	// nodePods counts the stored pods by spec.nodeName (bound pods only;
	// no zero entries). Snapshot: yes.
	nodePods map[string]int
	// log holds the retained tail of the append-only watch log: entry i of
	// the whole log is log[i-logBase]; log[i].RV < log[i+1].RV. Snapshot:
	// yes (a snapshot may share the slice: it is only appended to, and
	// ForgetWatchLog does not reuse an array a checkpoint may show).
	log []WatchEvent
	// logEpoch is the server's current epoch (see package cow): a new one
	// starts at every Checkpoint and Restore. logArrayEpoch is the epoch
	// in which ForgetWatchLog last moved the log to a fresh array. While
	// the two are the same, no checkpoint has seen that array and no one
	// but the server holds it past a step (WatchSince's readers iterate
	// and drop it), so ForgetWatchLog reuses it in place. Snapshot: no
	// (tokens only compare by identity; restoring starts a new epoch).
	logEpoch, logArrayEpoch *cow.Token
	// logBase is the number of entries dropped from the head of the log by
	// ForgetWatchLog. Snapshot: yes.
	logBase int
	// podShare holds what the last created pod may share with the next.
	// Snapshot: yes.
	podShare podShare
	// replayTo, while set, is a checkpoint of this run that the server's
	// state is being replayed toward (see ReplayToward). Snapshot: no.
	replayTo *Checkpoint
}

// New returns an empty server reading time from c, drawing UIDs and
// generated names from names, and recording every request to rec.
func New(c *clock.Clock, names *rng.Stream, rec *trace.Recorder) *Server {
	s := &Server{
		clock:     c,
		names:     names,
		rec:       rec,
		tables:    map[Resource]*table{},
		eventKeys: newEventIndex(),
		nodePods:  map[string]int{},
		owners:    ownerIndex{deps: map[types.UID]*dependentSet{}, epoch: cow.NewToken()},
	}
	s.logEpoch = cow.NewToken()
	s.logArrayEpoch = s.logEpoch
	for _, r := range []Resource{Pods, ReplicaSets, Deployments, Nodes} {
		s.tables[r] = newTable()
	}
	return s
}

// KeySlots returns the slot table the server's table of pods is on, keyed
// by storage key ("namespace/name"). A component that keeps a cow.Map of
// pods keyed the same way, and looks it up as it reads the watch log,
// makes it on this table (see cow.Map): it then finds a pod's key where
// the server's lookup left it. The other tables are on tables of their
// own: a small map on a large shared table would carry a chunk header per
// 32 pod keys into every checkpoint. A server that restores another
// server's checkpoint (a fork restoring the original's) moves to that
// server's table, as the other components' restored maps do.
func (s *Server) KeySlots() *cow.SlotTable[string] { return s.tables[Pods].objs.SlotTable() }

// ResourceVersion returns the last resourceVersion handed out.
func (s *Server) ResourceVersion() uint64 { return s.rv }

// WatchLog returns the retained watch log: every entry when nothing was
// forgotten (tests and tools that read from the start). The slice and its
// objects must not be modified, and the slice is valid until the next
// ForgetWatchLog, which may reuse its array (read it, do not keep it).
// Consumers that keep a cursor use WatchSince.
func (s *Server) WatchLog() []WatchEvent { return s.log }

// WatchSince returns the watch-log entries from position cursor (an index
// into the whole log since the server was created) to the end. Consumers keep
// their own cursor and advance it by the number of entries they read. The
// slice is valid until the next ForgetWatchLog, as WatchLog's is. A
// cursor before the retained part is a consumer that fell behind a
// ForgetWatchLog: a programming error, and it panics.
func (s *Server) WatchSince(cursor int) []WatchEvent {
	if cursor < s.logBase {
		panic("apiserver: watch-log cursor " + strconv.Itoa(cursor) + " is before the retained log (" + strconv.Itoa(s.logBase) + ")")
	}
	if i := cursor - s.logBase; i < len(s.log) {
		return s.log[i:]
	}
	return nil
}

// WatchEnd returns the position after the last watch-log entry: a cursor
// that has read everything.
func (s *Server) WatchEnd() int { return s.logBase + len(s.log) }

// ForgetWatchLog drops the entries before position upTo, which every
// consumer has read, so that old object versions can be collected. An
// array a checkpoint may show (made before the current epoch) is never
// overwritten: the retained entries move to a fresh one. Otherwise they
// move to the front of the same array and the slots after them are
// cleared, so a log forgotten in batches allocates nothing.
func (s *Server) ForgetWatchLog(upTo int) {
	n := min(upTo, s.WatchEnd()) - s.logBase
	if n <= 0 {
		return
	}
	s.logBase += n
	if s.logArrayEpoch == s.logEpoch {
		kept := copy(s.log, s.log[n:])
		clear(s.log[kept:])
		s.log = s.log[:kept]
		return
	}
	// The fresh array has room for as many entries as the log held, so
	// that a log forgotten in batches of about that size does not grow
	// again from nothing after every batch.
	s.log = append(make([]WatchEvent, 0, len(s.log)), s.log[n:]...)
	s.logArrayEpoch = s.logEpoch
}

// nextRV hands out the next resourceVersion.
func (s *Server) nextRV() uint64 {
	s.rv++
	return s.rv
}

func formatRV(rv uint64) string { return strconv.FormatUint(rv, 10) }

// parseRV returns the numeric RV of a stored object (always well-formed).
func parseRV(obj Object) uint64 {
	v, _ := strconv.ParseUint(obj.GetResourceVersion(), 10, 64)
	return v
}

// lookup returns the stored object or a NotFound error.
func (s *Server) lookup(res Resource, ns, name string) (Object, error) {
	if obj, ok := s.find(res, ns, name); ok {
		return obj, nil
	}
	return nil, apierrors.NewNotFound(res.GroupResource(), name)
}

// find returns the stored object, if any: lookup without building the
// NotFound error (a create checks that its name is free this way).
func (s *Server) find(res Resource, ns, name string) (Object, bool) {
	t, ok := s.tables[res]
	if !ok {
		if res == Events {
			if i, ok := s.eventKeys.find(&s.events, eventKey{ns, name}); ok {
				return s.eventAt(i).event(), true
			}
		}
		return nil, false
	}
	if !res.Namespaced() || ns == "" {
		obj, ok := t.objs.Get(name)
		return obj, ok
	}
	// objectKey's key, built here: in the browser's wasm, built without
	// inlining, objectKey's result escaped to the heap, one garbage string
	// per lookup (1.2% of a js/wasm rewind replay, node CPU profile of
	// BenchmarkSeek at 100k steps); built in the index expression it stays
	// in a stack buffer.
	obj, ok := t.objs.Get(ns + "/" + name)
	return obj, ok
}

// store writes obj (already carrying a fresh RV) and logs the change.
// old is the previously stored object, nil on create.
//
// It returns the object stored: obj, or, while the server replays toward
// a checkpoint that holds this very version (ReplayToward), that one.
func (s *Server) store(res Resource, old, obj Object) Object {
	key := objectKey(obj.GetNamespace(), obj.GetName())
	obj = s.replayed(res, key, obj)
	s.tables[res].put(key, obj)
	s.owners.update(res, old, obj)
	s.countNodePods(res, old, obj)
	typ := Modified
	if old == nil {
		typ = Added
	}
	s.log = append(s.log, WatchEvent{Type: typ, Resource: res, Key: key, Object: obj, Prev: old, RV: parseRV(obj)})
	return obj
}

// erase removes the object named by last from storage and logs a DELETED
// event carrying last stamped with the deletion RV, and returns last. last
// is the server's own copy of the stored object, made for this write and
// not stored or handed out yet (both callers, a delete and an update that
// removed the last finalizer, already hold one), so it is stamped in place
// instead of being copied once more: a pod's final delete used to copy the
// pod twice.
func (s *Server) erase(res Resource, last Object) Object {
	rv := s.nextRV()
	last.SetResourceVersion(formatRV(rv))
	key := objectKey(last.GetNamespace(), last.GetName())
	s.tables[res].remove(key)
	s.owners.update(res, last, nil)
	s.countNodePods(res, last, nil)
	s.log = append(s.log, WatchEvent{Type: Deleted, Resource: res, Key: key, Object: last, RV: rv})
	return last
}

// countNodePods moves a pod between the per-node counts for a change from
// old to obj (either nil for a creation or a removal).
func (s *Server) countNodePods(res Resource, old, obj Object) {
	if res != Pods {
		return
	}
	if p, _ := old.(*corev1.Pod); p != nil && p.Spec.NodeName != "" {
		if s.nodePods[p.Spec.NodeName]--; s.nodePods[p.Spec.NodeName] == 0 {
			delete(s.nodePods, p.Spec.NodeName)
		}
	}
	if p, _ := obj.(*corev1.Pod); p != nil && p.Spec.NodeName != "" {
		s.nodePods[p.Spec.NodeName]++
	}
}

// record emits the trace record of one request.
func (s *Server) record(actor, verb string, res Resource, sub string, ns, name string, obj Object, code int32, err error) {
	var rv uint64
	if err == nil && obj != nil {
		rv = parseRV(obj)
	}
	s.recordRV(actor, verb, res, sub, ns, name, rv, code, err)
}

// recordRV is record for a request whose outcome is known by its
// resourceVersion (0: none).
func (s *Server) recordRV(actor, verb string, res Resource, sub string, ns, name string, rv uint64, code int32, err error) {
	r := Request{Actor: actor, Verb: verb, Resource: requestResource(res, sub), Namespace: ns, Name: name, Code: code, RV: rv}
	if err != nil {
		r.Code = codeOf(err)
		r.Error = err.Error()
		r.RV = 0
	}
	r.emit(s.rec, traceSource)
}

// requestResource is the Resource of a request record: the resource and
// its subresource ("pods/status"), spelled without building the string for
// the status writes of the stored kinds.
func requestResource(res Resource, sub string) string {
	switch {
	case sub == "":
		return string(res)
	case sub != "/status":
	case res == Pods:
		return "pods/status"
	case res == ReplicaSets:
		return "replicasets/status"
	case res == Deployments:
		return "deployments/status"
	case res == Nodes:
		return "nodes/status"
	}
	return string(res) + sub
}

// codeOf returns the HTTP code of an API error.
func codeOf(err error) int32 {
	if st, ok := err.(apierrors.APIStatus); ok {
		return st.Status().Code
	}
	return 500
}
