package trace

import (
	"encoding/json"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// Payload is the typed content of a record. Implementations are plain structs
// with JSON tags; they must not hold pointers into live simulation state,
// because a record is immutable once emitted.
type Payload interface {
	// Kind classifies the payload.
	Kind() Kind
	// Text renders the payload as one stable, human-readable line.
	Text() string
}

// Record is one entry of the trace.
type Record struct {
	// Seq is 1 for the first record and increases by one per record.
	Seq uint64
	// Step is the simulator step that produced the record (0 before the
	// first step: set-up).
	Step int
	// At is the virtual time since the start of the simulation.
	At time.Duration
	// Source names the component that emitted the record, e.g. "apiserver",
	// "replicaset-controller", "kubelet".
	Source string
	// Data is the payload; never nil.
	Data Payload
}

// Kind is shorthand for r.Data.Kind().
func (r Record) Kind() Kind { return r.Data.Kind() }

// Text renders the record as one line: "#seq step +t.tttS source kind: text".
func (r Record) Text() string {
	return clock.FormatOffset(r.At) + " " + r.Source + " " + r.Data.Kind().String() + ": " + r.Data.Text()
}

type recordJSON struct {
	Seq    uint64        `json:"seq"`
	Step   int           `json:"step"`
	AtNs   time.Duration `json:"atNs"`
	Source string        `json:"source"`
	Kind   string        `json:"kind"`
	Type   string        `json:"type"`
	Text   string        `json:"text"`
	Data   Payload       `json:"data"`
}

// MarshalJSON renders the record in the versioned JSON trace schema (see
// docs/trace-schema.md): the payload goes under "data", its Go type name
// (without package) under "type", and its text under "text".
func (r Record) MarshalJSON() ([]byte, error) {
	return json.Marshal(recordJSON{
		Seq: r.Seq, Step: r.Step, AtNs: r.At, Source: r.Source,
		Kind: r.Data.Kind().String(), Type: TypeName(r.Data), Text: r.Data.Text(), Data: r.Data,
	})
}
