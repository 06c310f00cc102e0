package deployment

import "errors"

// Sentinel errors returned by a sync (wrapped with details; test with
// errors.Is). API errors are returned unwrapped, as upstream does, so that
// apierrors.IsConflict and friends keep working on them.
var (
	// ErrInvalidSelector: the Deployment's label selector does not convert
	// to a selector ("deployment <ns>/<name> has invalid label selector").
	ErrInvalidSelector = errors.New("invalid label selector")
	// ErrUnexpectedStrategy: spec.strategy.type is neither Recreate nor
	// RollingUpdate ("unexpected deployment strategy type: <t>").
	ErrUnexpectedStrategy = errors.New("unexpected deployment strategy type")
	// ErrBadKey: a queue key is not "namespace/name".
	ErrBadKey = errors.New("unexpected key format")
)

// kindError is an error whose text is exactly upstream's message while
// errors.Is still recognises the sentinel it belongs to.
type kindError struct {
	// msg is the full upstream text.
	msg string
	// kind is the sentinel; never nil.
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }
