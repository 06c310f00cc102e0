// Package informer gives controllers their view of the cluster: a cache per
// resource fed from the API server's watch log, with a delivery lag.
//
// An Informer reads new entries of the watch log when Observe is called and
// holds each one until its delivery time (the virtual time it was observed
// plus the configured lag). DeliverNext applies the oldest due event to the
// store and then calls every registered handler, in registration order, as
// client-go does: the store is updated before handlers run. With a lag of
// zero an event is due as soon as it is observed, but it is still delivered as
// its own simulator step, so the moment between a write and a controller
// seeing it is always visible in the trace.
//
// Lag is what makes expectations and the ReplicaSet stale-cache gate
// necessary, and it is real here: a controller reading the cache between a
// write and its delivery sees the old world.
//
// The store keeps objects in insertion order (deterministic; upstream's order
// is a map's and therefore arbitrary) and maintains the owner indexes the
// controllers use: pods by controller ("ns/Kind/name/uid", or "ns" for
// orphans) and ReplicaSets by controller UID. An update moves the object to
// the end of its index sets, as removing and re-adding it would. It also
// tracks the store-wide last-applied resourceVersion that the stale-cache
// gate compares against.
//
// One index can be summarized (Summarize): for each of its values, the
// objects grouped by label set and by a classifier's state and tag, kept
// current on every change and checkpointed with the store, plus per-object
// facts the classifier reads once per change. The ReplicaSet controller reads
// counts and ranking inputs from them instead of walking every pod.
//
// Objects handed to handlers and returned by listers are shared and must be
// treated as read-only; DeepCopy before changing anything.
package informer
