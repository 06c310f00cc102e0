package kubectl

import "fmt"

// cmdError carries kubectl's exact message while matching one of the
// package's sentinel errors with errors.Is.
type cmdError struct {
	kind error
	msg  string
}

func (e *cmdError) Error() string { return e.msg }
func (e *cmdError) Unwrap() error { return e.kind }

// failf returns an error whose text is exactly kubectl's message.
func failf(kind error, format string, args ...any) error {
	return &cmdError{kind: kind, msg: fmt.Sprintf(format, args...)}
}
