package deployutil

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
)

// Revision parses the revision annotation of rs. A missing annotation is
// revision 0; a value that is not a base-10 int64 is an error.
func Revision(rs *appsv1.ReplicaSet) (int64, error) {
	v, ok := rs.Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %s %q", ErrInvalidRevision, rs.Name, v)
	}
	return n, nil
}

// MaxRevision is the highest parseable revision among rss (0 if none);
// unparsable revisions are skipped.
func MaxRevision(rss []*appsv1.ReplicaSet) int64 {
	var top int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		if v, err := Revision(rs); err == nil && v > top {
			top = v
		}
	}
	return top
}

// LastRevision is the second-highest parseable revision among rss (0 if
// there is none): the revision a rollback to "revision 0" targets.
func LastRevision(rss []*appsv1.ReplicaSet) int64 {
	var top, second int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		v, err := Revision(rs)
		switch {
		case err != nil:
		case v >= top:
			second, top = top, v
		case v > second:
			second = v
		}
	}
	return second
}

// NewRevision is the revision a new ReplicaSet gets: MaxRevision(oldRSs)+1,
// as the decimal string written to the annotation.
func NewRevision(oldRSs []*appsv1.ReplicaSet) string {
	return strconv.FormatInt(MaxRevision(oldRSs)+1, 10)
}

// SetNewReplicaSetAnnotations brings the annotations of the new ReplicaSet
// rs up to date and reports whether anything changed. It mutates rs: pass a
// deep copy of a cached object.
//
//  1. Every annotation of d not on the skip list (last-applied, revision,
//     revision-history, desired-replicas, max-replicas, rollback-to) is copied
//     when missing or different on rs. Annotations only on rs stay.
//  2. If rs has a revision that is not an integer, it stops and reports false
//     (even if step 1 copied something). A newRevision that is not an integer
//     does the same.
//  3. If rs's revision is lower than newRevision it is raised. If rs had a
//     revision annotation before (a rollback to this ReplicaSet), the old
//     value is appended to revision-history, dropping the oldest entries so
//     the list stays within limitChars characters; if even the old value alone
//     does not fit, the history is left unchanged. An empty history simply
//     becomes the old value.
//  4. When !exists (the ReplicaSet is about to be created), desired-replicas
//     and max-replicas are set from d.
//
// Worked example (limit 5): revision 12 with history "10,11", newRevision 13
// -> "10,11,12" is 8 chars, drop "10" -> history "11,12", revision 13.
func SetNewReplicaSetAnnotations(d *appsv1.Deployment, rs *appsv1.ReplicaSet, newRevision string, exists bool, limitChars int) bool {
	changed := copyDeploymentAnnotations(d, rs)
	oldRevision, had := rs.Annotations[RevisionAnnotation]
	var oldRev int64
	if oldRevision != "" {
		v, err := strconv.ParseInt(oldRevision, 10, 64)
		if err != nil {
			return false
		}
		oldRev = v
	}
	newRev, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldRev < newRev {
		rs.Annotations[RevisionAnnotation] = newRevision
		changed = true
		if had {
			appendRevisionHistory(rs, oldRevision, limitChars)
		}
	}
	if !exists {
		desired := replicasOf(d)
		if SetReplicasAnnotations(rs, desired, desired+MaxSurge(d)) {
			changed = true
		}
	}
	return changed
}

// appendRevisionHistory appends oldRevision to rs's revision-history,
// trimming from the front to stay within limitChars.
func appendRevisionHistory(rs *appsv1.ReplicaSet, oldRevision string, limitChars int) {
	history := rs.Annotations[RevisionHistoryAnnotation]
	entries := strings.Split(history, ",")
	if entries[0] == "" {
		rs.Annotations[RevisionHistoryAnnotation] = oldRevision
		return
	}
	// total is the length of entries[start:] joined with oldRevision.
	total := len(history) + 1 + len(oldRevision)
	start := 0
	for total > limitChars && start < len(entries) {
		total -= len(entries[start]) + 1
		start++
	}
	if total > limitChars {
		return
	}
	kept := append(append([]string(nil), entries[start:]...), oldRevision)
	rs.Annotations[RevisionHistoryAnnotation] = strings.Join(kept, ",")
}

// copyDeploymentAnnotations copies d's annotations onto rs except the skip
// list, reporting whether any value was added or changed. Keys are visited
// in sorted order.
func copyDeploymentAnnotations(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	if rs.Annotations == nil {
		rs.Annotations = make(map[string]string, len(d.Annotations))
	}
	keys := make([]string, 0, len(d.Annotations))
	for k := range d.Annotations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	changed := false
	for _, k := range keys {
		v := d.Annotations[k]
		if skipCopyAnnotation(k) {
			continue
		}
		if cur, ok := rs.Annotations[k]; ok && cur == v {
			continue
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}
