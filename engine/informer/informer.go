package informer

import (
	"strconv"
	"strings"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Tombstone is what a delete handler receives when the informer missed the
// delete itself and learned of it later (client-go's
// DeletedFinalStateUnknown). Obj is the last state the cache had, which may be
// stale.
type Tombstone struct {
	Key string
	Obj apiserver.Object
}

// Handler is one set of event callbacks. Nil callbacks are skipped.
type Handler struct {
	// Name identifies the registrant in the trace ("replicaset-controller").
	Name     string
	OnAdd    func(obj apiserver.Object)
	OnUpdate func(oldObj, newObj apiserver.Object)
	// OnDelete receives an apiserver.Object or a Tombstone.
	OnDelete func(obj any)
}

// LogSource is the part of the API server an informer reads.
type LogSource interface {
	// WatchSince returns the entries from position cursor to the end.
	WatchSince(cursor int) []apiserver.WatchEvent
}

// Config holds an informer's tunables.
type Config struct {
	// Lag is how long after a write its watch event reaches the cache.
	Lag time.Duration
	// TombstonePercent is the chance (0-100) that a delete is missed by the
	// watch and delivered as a Tombstone, as after a relist.
	TombstonePercent int
	// Indexers are the store's indexes, fixed at construction.
	Indexers map[string]IndexFunc
	// KeySlots is the slot table the cache's map of objects is made on:
	// for the pod cache, the server's table of pods
	// (apiserver.Server.KeySlots), so that the cache finds the key of a
	// delivered event where the server's lookup left it; nil for a table
	// of its own.
	KeySlots *cow.SlotTable[string] `statediff:"skip"`
}

type pendingEvent struct {
	// event carries the object's key (WatchEvent.Key).
	event     apiserver.WatchEvent
	deliverAt time.Time
}

// Informer is the cache of one resource plus its handlers.
type Informer struct {
	resource apiserver.Resource
	source   LogSource
	clock    *clock.Clock
	rec      *trace.Recorder
	faults   *rng.Stream
	cfg      Config
	// cursor is the position of the next watch-log entry to observe.
	cursor int
	// pending holds observed, undelivered events in log order; deliverAt is
	// non-decreasing along it because the lag is fixed between observations.
	pending []pendingEvent
	// head is the index of the next undelivered entry of pending.
	head     int
	handlers []Handler
	// handlerNames holds the names of handlers, in order. Every delivery
	// record shares it, so it is replaced, never appended to in place.
	handlerNames []string
	store        *Store
	// delivered counts events applied to the store.
	delivered int
}

// New returns an informer for resource reading from source. faults is the
// stream used for tombstone faults (may be nil when TombstonePercent is 0).
func New(resource apiserver.Resource, source LogSource, c *clock.Clock, rec *trace.Recorder, faults *rng.Stream, cfg Config) *Informer {
	return &Informer{resource: resource, source: source, clock: c, rec: rec, faults: faults, cfg: cfg, store: newStore(cfg.Indexers, cfg.KeySlots)}
}

// Resource returns the resource this informer caches.
func (i *Informer) Resource() apiserver.Resource { return i.resource }

// Store returns the cache (read-only for callers).
func (i *Informer) Store() *Store { return i.store }

// Lag returns the configured delivery lag.
func (i *Informer) Lag() time.Duration { return i.cfg.Lag }

// SetLag changes the delivery lag for events observed from now on.
func (i *Informer) SetLag(d time.Duration) { i.cfg.Lag = d }

// AddHandler registers h; handlers run in registration order.
func (i *Informer) AddHandler(h Handler) {
	i.handlers = append(i.handlers, h)
	names := make([]string, 0, len(i.handlers))
	for _, h := range i.handlers {
		names = append(names, h.Name)
	}
	i.handlerNames = names
}

// Observe reads watch-log entries written since the last call and schedules
// those of this informer's resource for delivery at now + lag.
func (i *Informer) Observe() {
	at := i.clock.Now().Add(i.cfg.Lag)
	for _, ev := range i.source.WatchSince(i.cursor) {
		i.cursor++
		if ev.Resource == i.resource {
			i.pending = append(i.pending, pendingEvent{event: ev, deliverAt: at})
		}
	}
}

// Pending returns the number of observed, undelivered events.
func (i *Informer) Pending() int { return len(i.pending) - i.head }

// NextDue returns when the next event will be delivered.
func (i *Informer) NextDue() (time.Time, bool) {
	if i.head >= len(i.pending) {
		return time.Time{}, false
	}
	return i.pending[i.head].deliverAt, true
}

// DeliverNext applies the oldest pending event if it is due and runs the
// handlers. It reports whether an event was delivered.
func (i *Informer) DeliverNext() bool {
	if i.head >= len(i.pending) || i.pending[i.head].deliverAt.After(i.clock.Now()) {
		return false
	}
	ev := i.pending[i.head].event
	i.pending[i.head] = pendingEvent{}
	i.head++
	if i.head == len(i.pending) {
		i.pending, i.head = i.pending[:0], 0
	}
	i.apply(ev)
	return true
}

// apply applies ev to the store and runs the handlers.
func (i *Informer) apply(ev apiserver.WatchEvent) {
	key := ev.Key
	i.store.lastAppliedRV = ev.RV
	i.delivered++
	rec := WatchDelivery{Resource: string(i.resource), Type: string(ev.Type), Key: key, RV: ev.RV, Lag: i.cfg.Lag}
	rec.Handlers = i.handlerNames
	switch ev.Type {
	case apiserver.Added, apiserver.Modified:
		old := i.store.putKey(key, ev.Object)
		rec.emit(i.rec, "informer")
		for _, h := range i.handlers {
			if old == nil && h.OnAdd != nil {
				h.OnAdd(ev.Object)
			} else if old != nil && h.OnUpdate != nil {
				h.OnUpdate(old, ev.Object)
			}
		}
	case apiserver.Deleted:
		last := i.store.remove(key)
		var arg any = ev.Object
		if i.cfg.TombstonePercent > 0 && i.faults != nil && i.faults.Intn(100) < i.cfg.TombstonePercent {
			stale := last
			if stale == nil {
				stale = ev.Object
			}
			arg = Tombstone{Key: key, Obj: stale}
			rec.Tombstone = true
		}
		rec.emit(i.rec, "informer")
		for _, h := range i.handlers {
			if h.OnDelete != nil {
				h.OnDelete(arg)
			}
		}
	}
}

// WatchDelivery records one watch event applied to an informer's cache.
type WatchDelivery struct {
	Resource string        `json:"resource"`
	Type     string        `json:"type"`
	Key      string        `json:"key"`
	RV       uint64        `json:"rv"`
	Lag      time.Duration `json:"lagNs"`
	// Tombstone is true when the delete reached handlers as a tombstone.
	Tombstone bool     `json:"tombstone,omitempty"`
	Handlers  []string `json:"handlers"`
}

// Kind implements trace.Payload.
func (WatchDelivery) Kind() trace.Kind { return trace.KindWatch }

// Text implements trace.Payload.
func (w WatchDelivery) Text() string {
	var b strings.Builder
	b.WriteString(w.Resource)
	b.WriteByte(' ')
	b.WriteString(w.Type)
	b.WriteByte(' ')
	b.WriteString(w.Key)
	b.WriteString(" rv=")
	b.WriteString(strconv.FormatUint(w.RV, 10))
	if w.Tombstone {
		b.WriteString(" (missed; delivered as tombstone)")
	}
	if w.Lag > 0 {
		b.WriteString(" lag=")
		b.WriteString(w.Lag.String())
	}
	return b.String()
}

// NextRV returns the resourceVersion of the next pending event (0 if none);
// the simulator uses it to deliver events of different informers in write
// order.
func (i *Informer) NextRV() uint64 {
	if i.head >= len(i.pending) {
		return 0
	}
	return i.pending[i.head].event.RV
}

// NextKey returns the object key of the next pending event ("" if none).
func (i *Informer) NextKey() string {
	if i.head >= len(i.pending) {
		return ""
	}
	return i.pending[i.head].event.Key
}
