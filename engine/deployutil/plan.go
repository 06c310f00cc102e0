package deployutil

import (
	"fmt"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
)

// ScaleOp is the direction word upstream puts in a ScalingReplicaSet event.
type ScaleOp uint8

const (
	// ScaleOpNone: no direction (a proportional pass with nothing to add only
	// refreshes annotations, so it never emits an event).
	ScaleOpNone ScaleOp = iota
	// ScaleOpUp: "Scaled up replica set ...".
	ScaleOpUp
	// ScaleOpDown: "Scaled down replica set ...".
	ScaleOpDown
)

// String returns "up", "down" or "".
func (o ScaleOp) String() string {
	switch o {
	case ScaleOpUp:
		return "up"
	case ScaleOpDown:
		return "down"
	}
	return ""
}

// MarshalText renders the op as its String.
func (o ScaleOp) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// ErrorPolicy says what a step does when one of its writes fails. In every
// policy the writes after the failed one are not attempted.
type ErrorPolicy uint8

const (
	// ErrorReturn: the step returns the write's error, so the Deployment key
	// is requeued with backoff (scale, reconcileNewReplicaSet, cleanup).
	ErrorReturn ErrorPolicy = iota + 1
	// ErrorSwallow: the step reports "nothing scaled" with a nil error
	// (reconcileOldReplicaSets swallows errors from both of its sub-steps).
	ErrorSwallow
)

// String returns "return" or "swallow".
func (p ErrorPolicy) String() string {
	switch p {
	case ErrorReturn:
		return "return"
	case ErrorSwallow:
		return "swallow"
	}
	return "unknown"
}

// MarshalText renders the policy as its String.
func (p ErrorPolicy) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// RSWrite is one intended ReplicaSet Update: set spec.replicas and the
// desired-replicas / max-replicas annotations.
type RSWrite struct {
	// Name is the ReplicaSet's name.
	Name string `json:"name"`
	// FromReplicas is spec.replicas before this write (after any earlier
	// write of the same plan to the same ReplicaSet).
	FromReplicas int32 `json:"fromReplicas"`
	// Replicas is the new spec.replicas.
	Replicas int32 `json:"replicas"`
	// DesiredAnnotation is the desired-replicas value written (d.replicas).
	DesiredAnnotation string `json:"desiredAnnotation"`
	// MaxAnnotation is the max-replicas value written (d.replicas+maxSurge).
	MaxAnnotation string `json:"maxAnnotation"`
	// SizeChanged is Replicas != FromReplicas. Only a successful write with
	// SizeChanged counts as "scaled" and emits a ScalingReplicaSet event; a
	// write without it only refreshes the annotations.
	SizeChanged bool `json:"sizeChanged"`
	// Op is the direction word of the event message.
	Op ScaleOp `json:"op"`
}

// Apply returns a deep copy of rs with the write applied. The controller
// sends this object as the Update body; a later write of the same plan to the
// same ReplicaSet must be applied to the object the server returned.
func (w RSWrite) Apply(rs *appsv1.ReplicaSet) *appsv1.ReplicaSet {
	c := rs.DeepCopy()
	n := w.Replicas
	c.Spec.Replicas = &n
	if c.Annotations == nil {
		c.Annotations = make(map[string]string, 2)
	}
	c.Annotations[DesiredReplicasAnnotation] = w.DesiredAnnotation
	c.Annotations[MaxReplicasAnnotation] = w.MaxAnnotation
	return c
}

// EventMessage is the Normal ScalingReplicaSet event message emitted after a
// successful write with SizeChanged, e.g.
// "Scaled up replica set web-7d9 from 0 to 3".
func (w RSWrite) EventMessage() string {
	return fmt.Sprintf("Scaled %s replica set %s from %d to %d", w.Op, w.Name, w.FromReplicas, w.Replicas)
}

// Text renders the write as "web-7d9 3->5 (desired 10, max 13)".
func (w RSWrite) Text() string {
	return fmt.Sprintf("%s %d->%d (desired %s, max %s)", w.Name, w.FromReplicas, w.Replicas, w.DesiredAnnotation, w.MaxAnnotation)
}

// Plan is the ordered list of ReplicaSet writes one rollout step wants.
type Plan struct {
	// Writes are executed in order; execution stops at the first failure.
	Writes []RSWrite `json:"writes"`
	// OnError says what the step returns when a write fails.
	OnError ErrorPolicy `json:"onError"`
	// Scaled is what the step reports when every write succeeds. It is not
	// always "some write changed a size": reconcileOldReplicaSets reports
	// false after a planned (swallowed) error even if earlier writes scaled.
	Scaled bool `json:"scaled"`
}

// Run executes the plan with apply (one API Update per write), stopping at
// the first error. It returns the number of successful writes and what the
// step returns: (p.Scaled, nil) when every write succeeded; after a failed
// write, (false, err) under ErrorReturn and (false, nil) under ErrorSwallow.
// Events are the caller's: one per successful write with SizeChanged.
func (p Plan) Run(apply func(RSWrite) error) (done int, scaled bool, err error) {
	for _, w := range p.Writes {
		if werr := apply(w); werr != nil {
			if p.OnError == ErrorSwallow {
				return done, false, nil
			}
			return done, false, werr
		}
		done++
	}
	return done, p.Scaled, nil
}

// Text renders the writes as "a 3->2 (desired 5, max 6); b 1->0 (...)" or
// "no writes".
func (p Plan) Text() string {
	if len(p.Writes) == 0 {
		return "no writes"
	}
	parts := make([]string, len(p.Writes))
	for i, w := range p.Writes {
		parts[i] = w.Text()
	}
	return strings.Join(parts, "; ")
}

// scaleWrite builds the write scaleReplicaSet would issue to move rs to
// newScale, or ok=false when no write is needed. force=false (upstream's
// scaleReplicaSetAndRecordEvent) skips the write when the size is already
// newScale; force=true also writes when only the annotations are stale.
func scaleWrite(rs *appsv1.ReplicaSet, newScale int32, d *appsv1.Deployment, maxSurge int32, op ScaleOp, force bool) (RSWrite, bool) {
	from := rsReplicas(rs)
	desired := replicasOf(d)
	sizeChanged := from != newScale
	if !force && !sizeChanged {
		return RSWrite{}, false
	}
	if !sizeChanged && !ReplicasAnnotationsNeedUpdate(rs, desired, desired+maxSurge) {
		return RSWrite{}, false
	}
	if !force {
		op = ScaleOpDown
		if from < newScale {
			op = ScaleOpUp
		}
	}
	return RSWrite{
		Name:              rs.Name,
		FromReplicas:      from,
		Replicas:          newScale,
		DesiredAnnotation: strconv.FormatInt(int64(desired), 10),
		MaxAnnotation:     strconv.FormatInt(int64(desired+maxSurge), 10),
		SizeChanged:       sizeChanged,
		Op:                op,
	}, true
}
