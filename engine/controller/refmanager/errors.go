package refmanager

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/types"
)

// ErrCannotAdopt matches (with errors.Is) every AdoptRefusedError.
var ErrCannotAdopt = errors.New("can't adopt")

// AdoptRefusedError is returned for an adoption that CanAdopt refused. Its
// text is upstream's: "can't adopt Pod <ns>/<name> (<uid>): <cause>".
//
// It deliberately does not unwrap to its cause: upstream formats the cause
// with %v, so a NotFound from the owner's GET is not a NotFound of the
// adoption and is reported as an error.
type AdoptRefusedError struct {
	// Kind is the dependent's kind, "Pod" or "ReplicaSet".
	Kind      string
	Namespace string
	Name      string
	UID       types.UID
	// Cause is CanAdopt's error.
	Cause error
}

// Error implements error.
func (e *AdoptRefusedError) Error() string {
	return fmt.Sprintf("can't adopt %s %s/%s (%s): %v", e.Kind, e.Namespace, e.Name, e.UID, e.Cause)
}

// Is reports whether target is ErrCannotAdopt.
func (e *AdoptRefusedError) Is(target error) bool { return target == ErrCannotAdopt }
