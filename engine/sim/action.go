package sim

import (
	"time"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Action is something done to the cluster from outside the controllers: a
// scenario timeline entry or a user's action.
type Action struct {
	// Name describes the action in the trace ("scale deployment/web to 12").
	Name string
	// At is when a timed action runs; ignored when When is set.
	At time.Time
	// When, if set, makes the action run as soon as it returns true; it is
	// evaluated before every step and must only read state.
	When func(*Sim) bool
	// Do performs the action through API requests; its error is recorded.
	Do func(*Sim) (message string, err error)
	// seq orders actions scheduled for the same instant.
	seq int
}

// Schedule adds a to the timeline.
func (s *Sim) Schedule(a *Action) {
	s.actionSeq++
	a.seq = s.actionSeq
	s.timeline = append(s.timeline, a)
}

// PendingActions returns the names of actions not yet run, in order added.
func (s *Sim) PendingActions() []string {
	out := make([]string, 0, len(s.timeline))
	for _, a := range s.timeline {
		out = append(out, a.Name)
	}
	return out
}

// Do runs an action immediately, outside any step (used while setting up a
// scenario at time zero). The result is recorded like a timeline action.
func (s *Sim) Do(a *Action) error {
	err := s.runAction(a)
	s.observe()
	return err
}

func (s *Sim) runAction(a *Action) error {
	msg, err := a.Do(s)
	rec := ActionRecord{Name: a.Name, Message: msg}
	if err != nil {
		rec.Error = err.Error()
	}
	s.rec.Emit("timeline", rec)
	return err
}

// ActionRecord is the trace record of an action.
type ActionRecord struct {
	Name string `json:"name"`
	// Message is kubectl's reply on success.
	Message string `json:"message,omitempty"`
	// Error is the API server's (or the action's) error text.
	Error string `json:"error,omitempty"`
}

// Kind implements trace.Payload.
func (ActionRecord) Kind() trace.Kind { return trace.KindAction }

// Text implements trace.Payload.
func (r ActionRecord) Text() string {
	switch {
	case r.Error != "":
		return r.Name + ": error: " + r.Error
	case r.Message != "":
		return r.Name + ": " + r.Message
	}
	return r.Name
}
