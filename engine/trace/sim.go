package trace

// Note is a free-form simulator message (limits reached, errors, markers).
type Note struct {
	Message string `json:"message"`
}

// Kind implements Payload.
func (Note) Kind() Kind { return KindSim }

// Text implements Payload.
func (n Note) Text() string { return n.Message }
