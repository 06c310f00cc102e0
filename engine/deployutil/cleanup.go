package deployutil

import (
	"fmt"
	"math"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// CleanupVerdict is what cleanupDeployment decided for one old ReplicaSet.
type CleanupVerdict uint8

const (
	// CleanupDelete: the ReplicaSet is deleted.
	CleanupDelete CleanupVerdict = iota + 1
	// CleanupKeptWithinLimit: it is among the newest revisionHistoryLimit
	// cleanable ReplicaSets, so it is history to keep.
	CleanupKeptWithinLimit
	// CleanupKeptStatusReplicas: within the first diff, but status.replicas
	// is not 0 (pods still exist). Its slot is used up anyway.
	CleanupKeptStatusReplicas
	// CleanupKeptSpecReplicas: within the first diff, but spec.replicas is
	// not 0. Its slot is used up anyway.
	CleanupKeptSpecReplicas
	// CleanupKeptUnobserved: within the first diff, but generation >
	// status.observedGeneration. Its slot is used up anyway.
	CleanupKeptUnobserved
	// CleanupKeptBeingDeleted: it already has a deletionTimestamp and is not
	// counted at all.
	CleanupKeptBeingDeleted
)

// String names the verdict.
func (v CleanupVerdict) String() string {
	switch v {
	case CleanupDelete:
		return "delete"
	case CleanupKeptWithinLimit:
		return "kept: within revisionHistoryLimit"
	case CleanupKeptStatusReplicas:
		return "kept: status.replicas != 0"
	case CleanupKeptSpecReplicas:
		return "kept: spec.replicas != 0"
	case CleanupKeptUnobserved:
		return "kept: generation > observedGeneration"
	case CleanupKeptBeingDeleted:
		return "kept: being deleted"
	}
	return "unknown"
}

// MarshalText renders the verdict as its String.
func (v CleanupVerdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// CleanupCandidate is one old ReplicaSet considered by CleanupDeployment.
type CleanupCandidate struct {
	// Name is the ReplicaSet's name.
	Name string `json:"name"`
	// Revision is its revision annotation as written ("" when missing).
	Revision string `json:"revision"`
	// Verdict is the decision and why.
	Verdict CleanupVerdict `json:"verdict"`
}

// CleanupPlan is the cleanupDeployment decision: the ReplicaSets to delete,
// in order. The controller deletes them with default options (background
// cascade); NotFound is ignored and any other error aborts the cleanup and is
// returned.
type CleanupPlan struct {
	// Limit is spec.revisionHistoryLimit (nil: unset).
	Limit *int32 `json:"limit"`
	// Disabled is true when there is no limit (nil or MaxInt32): no cleanup.
	Disabled bool `json:"disabled"`
	// Cleanable is the number of old ReplicaSets without a deletionTimestamp.
	Cleanable int32 `json:"cleanable"`
	// Diff is Cleanable - limit: how many of the oldest revisions are
	// examined. Skipped ones still use up a slot.
	Diff int32 `json:"diff"`
	// Candidates are the cleanable ReplicaSets by revision (oldest first),
	// then those being deleted, each with its verdict.
	Candidates []CleanupCandidate `json:"candidates"`
	// Delete are the names to delete, in order.
	Delete []string `json:"delete"`
}

// Kind implements trace.Payload.
func (CleanupPlan) Kind() trace.Kind { return trace.KindDecision }

// Text implements trace.Payload.
func (p CleanupPlan) Text() string {
	if p.Disabled {
		return "cleanupDeployment: no revisionHistoryLimit -> keep everything"
	}
	parts := make([]string, len(p.Candidates))
	for i, c := range p.Candidates {
		rev := c.Revision
		if rev == "" {
			rev = "-"
		}
		parts[i] = fmt.Sprintf("%s (rev %s) %s", c.Name, rev, c.Verdict)
	}
	return fmt.Sprintf("cleanupDeployment: cleanable %d - limit %d = diff %d; %s -> delete [%s]",
		p.Cleanable, *p.Limit, p.Diff, orNone(strings.Join(parts, "; ")), strings.Join(p.Delete, ", "))
}

// CleanupDeployment decides which old ReplicaSets to delete to honour
// spec.revisionHistoryLimit. Nothing happens without a limit (nil or
// MaxInt32). ReplicaSets with a deletionTimestamp are not cleanable. With
// diff = cleanable - limit (nothing if <= 0), the cleanable ReplicaSets are
// sorted by revision (unparsable or equal revisions fall back to creation
// time, then name) and only the first diff are examined: each is deleted
// unless status.replicas != 0, spec.replicas != 0 or generation >
// observedGeneration. A skipped one still uses up its slot.
//
// Worked example (limit 1): foo-1 rev 1 with 1 replica, foo-2 rev 2 and
// foo-3 rev 3 empty: diff 2; foo-1 kept (spec != 0), foo-2 deleted, foo-3
// kept within the limit.
func CleanupDeployment(d *appsv1.Deployment, oldRSs []*appsv1.ReplicaSet) CleanupPlan {
	p := CleanupPlan{Delete: []string{}}
	if l := d.Spec.RevisionHistoryLimit; l != nil {
		v := *l // the record must not point into the deployment
		p.Limit = &v
	}
	if p.Limit == nil || *p.Limit == math.MaxInt32 {
		p.Disabled = true
		return p
	}
	var cleanable, deleting []*appsv1.ReplicaSet
	for _, rs := range oldRSs {
		switch {
		case rs == nil:
		case rs.DeletionTimestamp != nil:
			deleting = append(deleting, rs)
		default:
			cleanable = append(cleanable, rs)
		}
	}
	p.Cleanable = int32(len(cleanable))
	p.Diff = p.Cleanable - *p.Limit
	sort.Sort(byRevision(cleanable))
	for i, rs := range cleanable {
		c := CleanupCandidate{Name: rs.Name, Revision: rs.Annotations[RevisionAnnotation]}
		switch {
		case int32(i) >= p.Diff:
			c.Verdict = CleanupKeptWithinLimit
		case rs.Status.Replicas != 0:
			c.Verdict = CleanupKeptStatusReplicas
		case rsReplicas(rs) != 0:
			c.Verdict = CleanupKeptSpecReplicas
		case rs.Generation > rs.Status.ObservedGeneration:
			c.Verdict = CleanupKeptUnobserved
		default:
			c.Verdict = CleanupDelete
			p.Delete = append(p.Delete, rs.Name)
		}
		p.Candidates = append(p.Candidates, c)
	}
	for _, rs := range deleting {
		p.Candidates = append(p.Candidates, CleanupCandidate{Name: rs.Name, Revision: rs.Annotations[RevisionAnnotation], Verdict: CleanupKeptBeingDeleted})
	}
	return p
}
