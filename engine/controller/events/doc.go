// Package events records Kubernetes Events for the controllers, the way
// client-go's EventRecorder and event broadcaster do, on the virtual clock.
//
// Every Event a controller records goes through the broadcaster's
// correlator (correlator.go) before it reaches the API server: similar
// Events are combined, repeated ones counted by patches of the Event stored
// first, and a source's Events about one object are rate limited, with
// client-go's defaults. Each recorded Event is mirrored in the trace as an
// EventRecorded record that says what became of it. Recording is
// fire-and-forget, as upstream: a refused or dropped Event never fails a
// sync.
package events
