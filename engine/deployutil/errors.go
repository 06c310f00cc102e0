package deployutil

import "errors"

// Sentinel errors. Wrapped errors carry the details; test with errors.Is.
var (
	// ErrInvalidIntOrPercent: maxSurge or maxUnavailable could not be
	// resolved (a string without "%", or a non-numeric percent).
	ErrInvalidIntOrPercent = errors.New("invalid int or percent")
	// ErrUnsupportedStrategy: the deployment strategy is neither
	// RollingUpdate nor Recreate.
	ErrUnsupportedStrategy = errors.New("unsupported deployment strategy")
	// ErrInvalidAnnotation: a replica-count annotation is not an unsigned
	// base-10 int32.
	ErrInvalidAnnotation = errors.New("invalid replica annotation")
	// ErrInvalidRevision: a revision annotation is not a base-10 int64.
	ErrInvalidRevision = errors.New("invalid revision")
	// ErrInvalidScaleDown: a scale-down step computed a new size larger than
	// the current one (available > spec on an old ReplicaSet).
	ErrInvalidScaleDown = errors.New("invalid scale-down request")
)
