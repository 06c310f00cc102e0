// Package events records Kubernetes Events for the controllers, the way
// client-go's EventRecorder does, on the virtual clock.
//
// An Event is created through the API server (so `kubectl describe` shows
// it) and mirrored in the trace as an EventRecorded record. Recording is
// fire-and-forget, as upstream: a refused Event never fails a sync; the
// record says it was not stored.
package events
