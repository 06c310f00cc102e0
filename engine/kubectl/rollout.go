package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// progressDeadlineExceeded is the Progressing reason of a timed-out rollout.
const progressDeadlineExceeded = "ProgressDeadlineExceeded"

// RolloutStatus renders one check of `kubectl rollout status deployment/<d>`
// and reports whether the rollout is done (successfully or with its
// deadline exceeded). The checks, in order, once the controller has observed
// the latest generation:
//
//   - Progressing reason ProgressDeadlineExceeded:
//     `error: deployment "web" exceeded its progress deadline` (done);
//   - updated < spec.replicas: `Waiting for deployment "web" rollout to
//     finish: 3 out of 10 new replicas have been updated...`;
//   - replicas > updated: `... 2 old replicas are pending termination...`;
//   - available < updated: `... 7 of 10 updated replicas are available...`;
//   - otherwise `deployment "web" successfully rolled out` (done).
//
// Before that: `Waiting for deployment spec update to be observed...`.
func RolloutStatus(d *appsv1.Deployment) (text string, done bool) {
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...", false
	}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing && c.Reason == progressDeadlineExceeded {
			return fmt.Sprintf("error: deployment %q exceeded its progress deadline", d.Name), true
		}
	}
	st := d.Status
	prefix := fmt.Sprintf("Waiting for deployment %q rollout to finish: ", d.Name)
	switch {
	case d.Spec.Replicas != nil && st.UpdatedReplicas < *d.Spec.Replicas:
		return prefix + fmt.Sprintf("%d out of %d new replicas have been updated...", st.UpdatedReplicas, *d.Spec.Replicas), false
	case st.Replicas > st.UpdatedReplicas:
		return prefix + fmt.Sprintf("%d old replicas are pending termination...", st.Replicas-st.UpdatedReplicas), false
	case st.AvailableReplicas < st.UpdatedReplicas:
		return prefix + fmt.Sprintf("%d of %d updated replicas are available...", st.AvailableReplicas, st.UpdatedReplicas), false
	}
	return fmt.Sprintf("deployment %q successfully rolled out", d.Name), true
}

// HistoryOptions are the flags of `kubectl rollout history`.
type HistoryOptions struct {
	// Revision (--revision=N) shows that revision's pod template; 0 lists
	// every revision.
	Revision int64
	// Names (-o name) prints the revisions' ReplicaSets as
	// "replicaset.apps/<name>" lines.
	Names bool
}

// ErrNoRevision: --revision named a revision the Deployment does not have.
var ErrNoRevision = errors.New("kubectl: unable to find the specified revision")

// RolloutHistory renders `kubectl rollout history deployment/<d>` byte for
// byte as kubectl prints it. The revisions are those of the ReplicaSets d
// controls (old ones oldest first, then the new one; a revision appearing
// twice keeps the later ReplicaSet), each with its change cause: the
// ReplicaSet's kubernetes.io/change-cause annotation, else its template's.
//
// kubectl prints its name printer's line "deployment.apps/<d> <operation>"
// where the operation starts with a newline, so the first line ends with a
// space; then the REVISION CHANGE-CAUSE table (tab writer, padding 2) or
// "No rollout history found.", and a final newline. With a revision the
// operation is "with revision #N" and the ReplicaSet's pod template
// described with raw tabs (kubectl does not align it). With -o name only
// the ReplicaSets' names are printed, nothing when there are none.
func RolloutHistory(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, o HistoryOptions) (string, error) {
	newRS, old := splitReplicaSets(d, rss)
	ordered := old
	if newRS != nil {
		ordered = append(ordered, newRS)
	}
	byRev := map[int64]*appsv1.ReplicaSet{}
	for _, rs := range ordered {
		if rev, ok := revisionOf(rs); ok {
			byRev[rev] = rs
		}
	}
	revs := make([]int64, 0, len(byRev))
	for r := range byRev {
		revs = append(revs, r)
	}
	sort.Slice(revs, func(i, j int) bool { return revs[i] < revs[j] })
	if o.Revision > 0 {
		if _, ok := byRev[o.Revision]; !ok {
			return "", failf(ErrNoRevision, "unable to find the specified revision")
		}
		revs = []int64{o.Revision}
	}
	var b strings.Builder
	if o.Names {
		for _, r := range revs {
			b.WriteString(objectName(apiserver.ReplicaSets, byRev[r].Name) + "\n")
		}
		return b.String(), nil
	}
	b.WriteString(objectName(apiserver.Deployments, d.Name) + " ")
	switch {
	case o.Revision > 0:
		b.WriteString("with revision #" + strconv.FormatInt(o.Revision, 10) + "\n")
		rs := byRev[o.Revision]
		tmpl := rs.Spec.Template.DeepCopy()
		if cause := rs.Annotations[changeCauseAnnotation]; cause != "" {
			if tmpl.Annotations == nil {
				tmpl.Annotations = map[string]string{}
			}
			tmpl.Annotations[changeCauseAnnotation] = cause
		}
		writePodTemplate(&b, tmpl)
	case len(revs) == 0:
		b.WriteString("\nNo rollout history found.")
	default:
		b.WriteString("\n")
		w := newDescribeWriter(&b)
		fmt.Fprint(w, "REVISION\tCHANGE-CAUSE\n")
		for _, r := range revs {
			rs := byRev[r]
			cause := rs.Annotations[changeCauseAnnotation]
			if cause == "" {
				cause = rs.Spec.Template.Annotations[changeCauseAnnotation]
			}
			fmt.Fprintf(w, "%d\t%s\n", r, orNone(cause))
		}
		w.Flush()
	}
	b.WriteString("\n")
	return b.String(), nil
}
