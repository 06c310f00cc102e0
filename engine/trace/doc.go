// Package trace records everything that happens in a simulation as typed,
// ordered records.
//
// Every component writes through one Recorder: API requests, watch
// deliveries, workqueue operations, controller syncs and their decisions,
// kubelet transitions, garbage-collector actions and scenario actions. A record
// carries a sequence number, the simulator step that produced it, the virtual
// time, the component that emitted it and a typed payload.
//
// Payloads are plain structs. Their Text method renders one stable line (for
// golden tests and the CLI timeline); the same struct marshals to JSON for the
// UI. Text is rendered lazily, so recording is cheap on the hot path. The
// trace starts with the seed: a trace plus its seed reproduces a run.
//
// Records are stored encoded, in chunks, so a long trace grows without being
// copied and holds few pointers for the garbage collector to follow: the
// hot emitters write their payload's fields through a Codec (variable-length
// integers and references into an interned string table) instead of boxing
// it, and every record's header is a few bytes. Readers (At, Slice, Each,
// Records, Since) rebuild Records on each call; read runs of records with
// Each or Slice. A reader that streams the trace out as it grows (the
// command line) releases the chunks it has written with Forget, so that its
// memory does not grow with the run.
package trace
