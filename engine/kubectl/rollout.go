package kubectl

import (
	"fmt"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
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

// RolloutHistory renders `kubectl rollout history deployment/<d>`: the
// "deployment.apps/<d>" line, then a REVISION CHANGE-CAUSE table over the
// revisions of the ReplicaSets d controls (a revision appearing twice shows
// the last ReplicaSet's cause), the cause being the ReplicaSet's
// kubernetes.io/change-cause annotation or "<none>". Without revisions it
// prints "No rollout history found.".
func RolloutHistory(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) string {
	causes := map[int64]string{}
	for _, rs := range ownedBy(d, rss) {
		rev, ok := revisionOf(rs)
		if !ok {
			continue
		}
		cause := rs.Annotations[changeCauseAnnotation]
		if cause == "" {
			cause = rs.Spec.Template.Annotations[changeCauseAnnotation]
		}
		causes[rev] = cause
	}
	var b strings.Builder
	b.WriteString(objectName("deployments", d.Name) + "\n")
	if len(causes) == 0 {
		b.WriteString("No rollout history found.\n")
		return b.String()
	}
	revs := make([]int64, 0, len(causes))
	for r := range causes {
		revs = append(revs, r)
	}
	sort.Slice(revs, func(i, j int) bool { return revs[i] < revs[j] })
	w := newDescribeWriter(&b)
	fmt.Fprintln(w, "REVISION\tCHANGE-CAUSE")
	for _, r := range revs {
		fmt.Fprintf(w, "%d\t%s\n", r, orNone(causes[r]))
	}
	w.Flush()
	b.WriteString("\n")
	return b.String()
}
