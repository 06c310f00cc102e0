package events

import (
	"slices"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The correlator's settings: client-go's defaults, which the deployment and
// replicaset controllers use (record.NewBroadcaster with no options).
const (
	// cacheEntries is the size of each of the correlator's three caches.
	cacheEntries = 4096
	// similarMax is how many distinct messages of similar Events (same
	// source, object, type and reason) are stored before they are
	// combined: the similarMax-th is the first combined.
	similarMax = 10
	// similarWindow is how long similar Events are remembered: one that
	// comes later than this after the last starts a new count.
	similarWindow = 600 * time.Second
	// spamBurst is how many Events a source may write about one object at
	// once; spamRefill is how many it regains per second after that.
	spamBurst = 25
)

// spamRefill is 1/300 per second, as client-go passes it: through a
// float32, so one token takes slightly less than 300 s to come back.
var spamRefill = float64(float32(1. / 300.))

// combinedPrefix starts the message of an Event that stands for similar
// ones.
const combinedPrefix = "(combined from similar events): "

// correlator is what client-go's event broadcaster puts between a
// controller's recorder and the API server (record.EventCorrelator), on
// the virtual clock. For each Event it does three things, in this order:
//
//  1. Aggregation. Events are similar when they have the same source,
//     involved object, type, reason and reporting controller. The
//     aggregator remembers up to similarMax-1 distinct messages per group,
//     and forgets them when similarWindow passes after the group's last
//     Event. An Event whose message makes similarMax distinct ones is
//     replaced by an Event whose message is combinedPrefix and its own
//     message, recorded under the group's key, so that it is created once
//     and then counted; the oldest remembered message makes room for its
//     own. (An Event repeating a remembered message is not combined: it is
//     counted under its own key.)
//  2. Counting. An Event equal to one stored before (its message
//     included), or a combined Event after the first, is written as a
//     patch of the stored one: count one higher, its lastTimestamp and
//     its message.
//  3. Spam filter. Each source and involved object has a token bucket of
//     spamBurst tokens refilled at spamRefill per second; an Event that
//     finds it empty is dropped, after steps 1 and 2 counted it. Creates
//     and patches spend alike, whatever the reason.
//
// Invariant: every cache holds at most cacheEntries entries.
type correlator struct {
	// similar is the aggregator's state: per similar-Events key, the
	// distinct messages seen and the time of the last.
	similar cache[similarEvents]
	// stored is the counting state: per Event key (or similar-Events key,
	// for a combined Event), the stored Event it is counted into.
	stored cache[storedEvent]
	// spam holds the token bucket of each source and object.
	spam cache[tokenBucket]
	// lastGroup is the similar-Events key built last, and the Event it
	// was built from: a controller records runs of Events about one
	// object, and the key is reused while the fields it is made of stay
	// the same. Derived from its Event alone, so not state. Snapshot: no.
	lastGroup struct {
		of  corev1.Event // only the fields similarKey reads are compared
		key string       // "" until a key is built
	} `statediff:"skip"`
}

// similarEvents is the aggregator's record of one group of similar Events.
type similarEvents struct {
	// messages are the distinct messages seen, oldest first: at most
	// similarMax-1 between Events. Changed in place (a checkpoint copies
	// it).
	messages []string
	// last is when the last of them came.
	last time.Time
}

// storedEvent is what the correlator remembers of an Event it stored:
// enough to patch it. (client-go also keeps its resourceVersion, which its
// patch never sends.)
type storedEvent struct {
	count int32
	first metav1.Time
	name  string
}

// tokenBucket is golang.org/x/time/rate's Limiter, as client-go's
// flowcontrol token bucket uses it (TryAccept is AllowN(now, 1)).
type tokenBucket struct {
	tokens float64
	last   time.Time
}

func newCorrelator() *correlator {
	return &correlator{similar: newCache[similarEvents](cacheEntries), stored: newCache[storedEvent](cacheEntries), spam: newCache[tokenBucket](cacheEntries)}
}

// correlated is the correlator's verdict on one Event.
type correlated struct {
	// event is the Event to write: the one recorded, or the combined one
	// (whose message gets combinedPrefix only when it is written).
	event corev1.Event
	// combined is set when event stands for similar Events.
	combined bool
	// dropped is set when the spam filter dropped it: nothing is written.
	dropped bool
}

// patch reports whether the Event is written as a patch of one stored
// before (client-go patches when the count is above one).
func (c *correlated) patch() bool { return c.event.Count > 1 }

// correlate runs the three steps on e, recorded at now, and returns the
// verdict. e's name is left for correlate to set: nanos gives the suffix
// of a new name (the recorder's names stay unique at one virtual
// instant), and is called only for an Event to be created, the combined
// one in place of the one recorded: a counted Event takes the stored
// one's name.
func (c *correlator) correlate(e *corev1.Event, now time.Time, nanos func() int64) correlated {
	out := correlated{event: *e}
	ev := &out.event
	group := c.similarKeyOf(e)
	var key string
	if c.aggregate(group, e.Message, now) {
		out.combined = true
		*ev = corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Namespace: e.Namespace},
			InvolvedObject: e.InvolvedObject,
			Reason:         e.Reason,
			Message:        e.Message, // prefixed when written
			Type:           e.Type,
			Source:         e.Source,
			FirstTimestamp: metav1.NewTime(now),
			LastTimestamp:  metav1.NewTime(now),
			Count:          1,
		}
		key = group
	} else {
		key = eventKey(e)
	}
	last, found := c.stored.upsert(key)
	if found && last.count > 0 {
		ev.Name, ev.FirstTimestamp, ev.Count = last.name, last.first, last.count+1
	} else {
		ev.Name = eventName(e.InvolvedObject.Name, nanos())
	}
	*last = storedEvent{count: ev.Count, first: ev.FirstTimestamp, name: ev.Name}
	// The spam key is the similar-Events key's first fields.
	out.dropped = !c.allow(group[:spamKeyLen(e)], now)
	if out.combined && !out.dropped {
		ev.Message = combinedPrefix + ev.Message
	}
	return out
}

// eventName is client-go's Event name: the object's name and a
// hexadecimal Unix time in nanoseconds.
func eventName(obj string, nanos int64) string { return obj + "." + strconv.FormatInt(nanos, 16) }

// aggregate records message in the group of similar Events and reports
// whether the Event is to be combined.
func (c *correlator) aggregate(group, message string, now time.Time) bool {
	rec, _ := c.similar.upsert(group)
	if now.Sub(rec.last) > similarWindow {
		rec.messages = rec.messages[:0]
	}
	rec.last = now
	if slices.Contains(rec.messages, message) {
		return false
	}
	if len(rec.messages) < similarMax-1 {
		rec.messages = append(rec.messages, message)
		return false
	}
	// The similarMax-th distinct message: client-go takes an arbitrary
	// one out of the set (a Go map's PopAny); the oldest is one such
	// choice, and keeps replays identical.
	copy(rec.messages, rec.messages[1:])
	rec.messages[len(rec.messages)-1] = message
	return true
}

// allow spends a token of key's bucket, if one is there.
func (c *correlator) allow(key string, now time.Time) bool {
	b, found := c.spam.upsert(key)
	if !found {
		*b = tokenBucket{tokens: spamBurst, last: now}
	}
	last := b.last
	if now.Before(last) {
		last = now
	}
	tokens := min(b.tokens+now.Sub(last).Seconds()*spamRefill, spamBurst) - 1
	// rate.Limiter allows when the wait for the missing fraction of a
	// token rounds to no time at all.
	allowed := tokens >= 0 || time.Duration(-tokens/spamRefill*float64(time.Second)) <= 0
	if allowed {
		b.tokens, b.last = tokens, now
	}
	return allowed
}

// written tells the correlator what the server stored (client-go's
// UpdateState), under the stored Event's own key: for a combined Event
// that is a key no later Event looks up, but it takes a cache entry all
// the same.
func (c *correlator) written(e *corev1.Event) {
	v, _ := c.stored.upsert(eventKey(e))
	*v = storedEvent{count: e.Count, first: e.FirstTimestamp, name: e.Name}
}

// clone returns an independent copy.
func (c *correlator) clone() *correlator {
	return &correlator{
		similar: c.similar.clone(func(v similarEvents) similarEvents {
			v.messages = slices.Clone(v.messages)
			return v
		}),
		stored: c.stored.clone(nil),
		spam:   c.spam.clone(nil),
	}
}

// The three keys concatenate their fields with no separator, as
// client-go's do.

// eventKey identifies an Event up to its timestamps and count.
func eventKey(e *corev1.Event) string {
	o := &e.InvolvedObject
	return e.Source.Component + e.Source.Host + o.Kind + o.Namespace + o.Name + o.FieldPath + string(o.UID) + o.APIVersion + e.Type + e.Reason + e.Message
}

// similarKey identifies a group of similar Events (client-go's
// EventAggregatorByReasonFunc).
func similarKey(e *corev1.Event) string {
	o := &e.InvolvedObject
	return e.Source.Component + e.Source.Host + o.Kind + o.Namespace + o.Name + string(o.UID) + o.APIVersion + e.Type + e.Reason + e.ReportingController + e.ReportingInstance
}

// similarKeyOf is similarKey, reusing the key built last when e's fields
// that make it are the same.
func (c *correlator) similarKeyOf(e *corev1.Event) string {
	if c.lastGroup.key != "" && sameSimilarFields(&c.lastGroup.of, e) {
		return c.lastGroup.key
	}
	c.lastGroup.of, c.lastGroup.key = *e, similarKey(e)
	return c.lastGroup.key
}

// sameSimilarFields reports whether a and b have the fields similarKey
// reads in common.
func sameSimilarFields(a, b *corev1.Event) bool {
	x, y := &a.InvolvedObject, &b.InvolvedObject
	return a.Source == b.Source && x.Kind == y.Kind && x.Namespace == y.Namespace && x.Name == y.Name && x.UID == y.UID &&
		x.APIVersion == y.APIVersion && a.Type == b.Type && a.Reason == b.Reason &&
		a.ReportingController == b.ReportingController && a.ReportingInstance == b.ReportingInstance
}

// spamKeyLen is the length of e's spam key, which identifies a source and
// an object (client-go's getSpamKey): the first fields of similarKey,
// which correlate cuts from it.
func spamKeyLen(e *corev1.Event) int {
	o := &e.InvolvedObject
	return len(e.Source.Component) + len(e.Source.Host) + len(o.Kind) + len(o.Namespace) + len(o.Name) + len(o.UID) + len(o.APIVersion)
}
