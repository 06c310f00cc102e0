package scenariotest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

const revisionAnn = "deployment.kubernetes.io/revision"

// rsByImage returns the name of the ReplicaSet of Deployment d running
// image.
func rsByImage(t testing.TB, sm *sim.Sim, d, image string) string {
	t.Helper()
	for name, rs := range ownedRS(sm, d) {
		if rs.Spec.Template.Spec.Containers[0].Image == image {
			return name
		}
	}
	t.Fatalf("no ReplicaSet of %s runs %s", d, image)
	return ""
}

// actionRan reports whether a timeline or user action whose text contains
// sub has run.
func actionRan(sub string) func(*sim.Sim) bool {
	return func(sm *sim.Sim) bool {
		for _, r := range sm.Recorder().Records() {
			if r.Kind() == trace.KindAction && strings.Contains(r.Data.Text(), sub) {
				return true
			}
		}
		return false
	}
}

// TestRollingUpdate1032 is the example of the Deployment controller's
// source: new RS created at 3, old 10->8, new 3->5, old 8->3, new 5->10,
// old 3->0.
func TestRollingUpdate1032(t *testing.T) {
	r := loadLibrary(t, "rolling-update-10-3-2")
	r.finish(t, true)
	sm := r.Sess.Sim()
	old, cur := rsByImage(t, sm, "web", "nginx:1.25"), rsByImage(t, sm, "web", "nginx:1.26")
	want := []string{
		"up " + old + " from 0 to 10",
		"up " + cur + " from 0 to 3",
		"down " + old + " from 10 to 8",
		"up " + cur + " from 3 to 5",
		"down " + old + " from 8 to 3",
		"up " + cur + " from 5 to 10",
		"down " + old + " from 3 to 0",
	}
	if got := r.scalingEvents(); !slices.Equal(got, want) {
		t.Fatalf("ScalingReplicaSet events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCrashLoopBlocksThenUndo: crash-looping new pods hold the old RS at 8
// (maxScaledDown = 13 - 8 - 5 = 0) until rollout undo, which cleans the
// unhealthy new RS up first and makes the old RS current (revision 3).
func TestCrashLoopBlocksThenUndo(t *testing.T) {
	r := loadLibrary(t, "crash-loop-undo")
	r.stepUntil(t, "set image", actionRan("set image"), 10_000)
	sm := r.Sess.Sim()
	old := rsByImage(t, sm, "web", "nginx:1.25")
	// Until the undo, the old RS never goes below 8 and the new above 5.
	for !actionRan("rollout undo")(sm) {
		if _, ok := r.StepOnce(); !ok {
			t.Fatal("run ended before the undo")
		}
		for name, rs := range ownedRS(sm, "web") {
			if name == old && *rs.Spec.Replicas < 8 {
				t.Fatalf("old RS scaled below 8 while new pods crash-loop: %d", *rs.Spec.Replicas)
			}
			if name != old && *rs.Spec.Replicas > 5 {
				t.Fatalf("new RS above 5: %d", *rs.Spec.Replicas)
			}
		}
	}
	broken := rsByImage(t, sm, "web", "nginx:broken")
	if n := *rsNamed(sm, broken).Spec.Replicas; n != 5 {
		t.Fatalf("broken RS at undo = %d, want 5", n)
	}
	r.finish(t, true)
	events := r.scalingEvents()
	tail := events[len(events)-2:]
	if want := []string{"down " + broken + " from 5 to 0", "up " + old + " from 8 to 10"}; !slices.Equal(tail, want) {
		t.Errorf("events after undo = %v, want %v", tail, want)
	}
	if rev := rsNamed(sm, old).Annotations[revisionAnn]; rev != "3" {
		t.Errorf("old RS revision after undo = %q, want 3", rev)
	}
}

// TestRollover: the template changes again mid-rollout; v3 grows without
// waiting for v2, the unhealthy v2 replicas go first, and only v3 remains.
func TestRollover(t *testing.T) {
	r := loadLibrary(t, "rollover")
	r.finish(t, true)
	sm := r.Sess.Sim()
	v1, v2, v3 := rsByImage(t, sm, "web", "nginx:v1"), rsByImage(t, sm, "web", "nginx:v2"), rsByImage(t, sm, "web", "nginx:v3")
	ev := r.scalingEvents()
	iDown2 := slices.Index(ev, "down "+v2+" from 5 to 0")
	iUp3 := slices.Index(ev, "up "+v3+" from 0 to 5")
	if iDown2 < 0 || iUp3 < 0 || iDown2 > iUp3 {
		t.Fatalf("events %v: want v2 5->0 (unhealthy cleanup) then v3 0->5", ev)
	}
	if slices.ContainsFunc(ev, func(e string) bool { return strings.HasPrefix(e, "up "+v2+" from 5") }) {
		t.Error("v2 kept growing after the roll-over")
	}
	for name, rs := range ownedRS(sm, "web") {
		want := int32(0)
		if name == v3 {
			want = 10
		}
		if *rs.Spec.Replicas != want {
			t.Errorf("%s spec = %d, want %d", name, *rs.Spec.Replicas, want)
		}
	}
	_ = v1
}

// TestRecreate: no pod of the new template exists while any old pod (even
// terminating) exists; then the new RS is created at full size.
func TestRecreate(t *testing.T) {
	r := loadLibrary(t, "recreate")
	sm := r.Sess.Sim()
	for {
		if _, ok := r.StepOnce(); !ok {
			break
		}
		var oldPods, newPods int
		for _, p := range sm.Server().ListPods("default", nil) {
			if p.Spec.Containers[0].Image == "postgres:17" {
				newPods++
			} else {
				oldPods++
			}
		}
		if newPods > 0 && oldPods > 0 {
			t.Fatalf("step %d: %d new pods while %d old pods exist", r.Sess.Step(), newPods, oldPods)
		}
	}
	r.finish(t, true)
	old, cur := rsByImage(t, sm, "db", "postgres:16"), rsByImage(t, sm, "db", "postgres:17")
	want := []string{"up " + old + " from 0 to 4", "down " + old + " from 4 to 0", "up " + cur + " from 0 to 4"}
	if got := r.scalingEvents(); !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

// progressing returns the Progressing condition of d.
func progressing(d *appsv1.Deployment) *appsv1.DeploymentCondition {
	for i := range d.Status.Conditions {
		if d.Status.Conditions[i].Type == appsv1.DeploymentProgressing {
			return &d.Status.Conditions[i]
		}
	}
	return nil
}

// TestPauseScaleResume: paused -> DeploymentPaused, no new RS for the new
// template, the scale goes to the existing RS; resume -> rollout.
func TestPauseScaleResume(t *testing.T) {
	r := loadLibrary(t, "pause-resume")
	sm := r.Sess.Sim()
	r.stepUntil(t, "resume", actionRan("rollout resume"), 100_000)
	// Just before the resume ran the state was paused; check what it left.
	if n := len(ownedRS(sm, "api")); n != 1 {
		t.Fatalf("ReplicaSets while paused = %d, want 1 (no new RS)", n)
	}
	for _, rs := range ownedRS(sm, "api") {
		if *rs.Spec.Replicas != 9 {
			t.Errorf("existing RS after scale while paused = %d, want 9", *rs.Spec.Replicas)
		}
	}
	if got := r.texts(trace.KindDecision, "condition Progressing", "Unknown/DeploymentPaused"); len(got) == 0 {
		t.Error("no Progressing=Unknown/DeploymentPaused")
	}
	r.finish(t, true)
	if got := r.texts(trace.KindDecision, "condition Progressing", "DeploymentResumed"); len(got) == 0 {
		t.Error("no DeploymentResumed condition")
	}
	cur := rsByImage(t, sm, "api", "api:v2")
	if rs := rsNamed(sm, cur); *rs.Spec.Replicas != 9 || rs.Status.AvailableReplicas != 9 {
		t.Errorf("new RS %d/%d, want 9/9", *rs.Spec.Replicas, rs.Status.AvailableReplicas)
	}
}

// TestRollbackToRevision: undo --to-revision=1 reuses revision 1's RS,
// raising its revision to 4 with "1" in revision-history.
func TestRollbackToRevision(t *testing.T) {
	r := loadLibrary(t, "rollback")
	r.finish(t, true)
	sm := r.Sess.Sim()
	first := rsByImage(t, sm, "web", "nginx:1.25")
	rs := rsNamed(sm, first)
	if rs.Annotations[revisionAnn] != "4" || rs.Annotations["deployment.kubernetes.io/revision-history"] != "1" {
		t.Errorf("rolled-back RS annotations %v, want revision 4 and revision-history 1", rs.Annotations)
	}
	if *rs.Spec.Replicas != 4 || len(ownedRS(sm, "web")) != 3 {
		t.Errorf("rolled-back RS at %d, %d RSs; want 4 and 3 RSs (no new one)", *rs.Spec.Replicas, len(ownedRS(sm, "web")))
	}
	if d := deployment(t, sm, "web"); d.Annotations[revisionAnn] != "4" {
		t.Errorf("deployment revision %q, want 4", d.Annotations[revisionAnn])
	}
}

// TestProgressDeadlineExceeded: Progressing turns False/ProgressDeadline
// Exceeded at the first sync strictly after lastUpdateTime + 60s, which the
// requeue puts at lastUpdateTime + 61s.
func TestProgressDeadlineExceeded(t *testing.T) {
	r := loadLibrary(t, "progress-deadline")
	sm := r.Sess.Sim()
	var lastUpdate time.Time
	var newRS string
	for {
		if _, ok := r.StepOnce(); !ok {
			break
		}
		c := progressing(deployment(t, sm, "web"))
		if c == nil {
			continue
		}
		if c.Reason == "ReplicaSetUpdated" {
			lastUpdate = c.LastUpdateTime.Time
		}
		if c.Reason == "ProgressDeadlineExceeded" {
			newRS = c.Message
			break
		}
	}
	d := deployment(t, sm, "web")
	c := progressing(d)
	if c == nil || c.Status != corev1.ConditionFalse || c.Reason != "ProgressDeadlineExceeded" {
		t.Fatalf("Progressing = %+v, want False/ProgressDeadlineExceeded", c)
	}
	if want := lastUpdate.Add(61 * time.Second); !c.LastTransitionTime.Time.Equal(want) || !sm.Now().Equal(want) {
		t.Errorf("timed out at %s, want lastUpdateTime %s + 61s", c.LastTransitionTime.Time.Sub(sm.Clock().Start()), lastUpdate.Sub(sm.Clock().Start()))
	}
	if cur := rsByImage(t, sm, "web", "web:bad"); newRS != fmt.Sprintf("ReplicaSet %q has timed out progressing.", cur) {
		t.Errorf("message %q", newRS)
	}
	r.finish(t, false)
	if d := deployment(t, sm, "web"); d.Spec.Template.Spec.Containers[0].Image != "web:bad" {
		t.Error("the controller rolled back by itself")
	}
}

// historyScenario rolls nginx:1.25 -> 1.26 -> 1.27 -> 1.28 with the given
// revisionHistoryLimit.
func historyScenario(limit int) string {
	var tl strings.Builder
	for _, img := range []string{"1.26", "1.27", "1.28"} {
		fmt.Fprintf(&tl, "  - {when: {rolloutComplete: deployment/web}, action: setImage, target: deployment/web, image: \"nginx:%s\"}\n", img)
	}
	return fmt.Sprintf(`apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: history}
spec:
  seed: 3
  timeline:
%s---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  revisionHistoryLimit: %d
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: web, image: "nginx:1.25"}
`, tl.String(), limit)
}

// TestRevisionHistoryLimit: after the last rollout completes, limit 0 keeps
// only the current RS and limit 1 keeps the current one plus revision 3.
func TestRevisionHistoryLimit(t *testing.T) {
	for _, tc := range []struct {
		limit int
		want  []string // images of the RSs left
	}{
		{0, []string{"nginx:1.28"}},
		{1, []string{"nginx:1.27", "nginx:1.28"}},
	} {
		t.Run(fmt.Sprint(tc.limit), func(t *testing.T) {
			r := load(t, "history.yaml", historyScenario(tc.limit))
			r.finish(t, true)
			var got []string
			for _, rs := range ownedRS(r.Sess.Sim(), "web") {
				got = append(got, rs.Spec.Template.Spec.Containers[0].Image)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("ReplicaSets left run %v, want %v", got, tc.want)
			}
		})
	}
}

// TestMaxSurgeZero: the old RS goes down first (new RS created at 0), and
// the total never exceeds 4 (checked by the surge invariant).
func TestMaxSurgeZero(t *testing.T) {
	r := loadLibrary(t, "max-surge-zero")
	r.finish(t, true)
	sm := r.Sess.Sim()
	old, cur := rsByImage(t, sm, "web", "nginx:1.25"), rsByImage(t, sm, "web", "nginx:1.26")
	var want []string
	want = append(want, "up "+old+" from 0 to 4")
	for i := 4; i > 0; i-- {
		want = append(want, fmt.Sprintf("down %s from %d to %d", old, i, i-1), fmt.Sprintf("up %s from %d to %d", cur, 4-i, 5-i))
	}
	if got := r.scalingEvents(); !slices.Equal(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMaxUnavailableZero: with 2 replicas the controller surges one new pod
// first and scales the old RS down only after it is available; available
// pods never drop below 2 after the rollout starts.
func TestMaxUnavailableZero(t *testing.T) {
	r := loadLibrary(t, "max-unavailable-zero")
	r.stepUntil(t, "set image", actionRan("set image"), 10_000)
	sm := r.Sess.Sim()
	for {
		if _, ok := r.StepOnce(); !ok {
			break
		}
		if d := deployment(t, sm, "web"); d.Status.AvailableReplicas < 2 {
			t.Fatalf("step %d: available %d < 2", r.Sess.Step(), d.Status.AvailableReplicas)
		}
	}
	r.finish(t, true)
	old, cur := rsByImage(t, sm, "web", "nginx:1.25"), rsByImage(t, sm, "web", "nginx:1.26")
	want := []string{"up " + old + " from 0 to 2", "up " + cur + " from 0 to 1", "down " + old + " from 2 to 1", "up " + cur + " from 1 to 2", "down " + old + " from 1 to 0"}
	if got := r.scalingEvents(); !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

// proportion is the test's own statement of scale(): every active RS gets
// round(spec*newMax/oldMax)-spec (half away from zero), capped by what is
// left to add, larger RSs first (ties: newer first when adding); the
// leftover goes to the first.
func proportion(specs []int32, oldMax, newMax int32) []int32 {
	var total int32
	for _, s := range specs {
		total += s
	}
	toAdd := newMax - total
	out := slices.Clone(specs)
	var added int32
	for i, s := range specs {
		if s == 0 || toAdd == added {
			continue
		}
		f := int32(math.Round(float64(s)*float64(newMax)/float64(oldMax))) - s
		if toAdd > 0 {
			f = min(f, toAdd-added)
		} else {
			f = max(f, toAdd-added)
		}
		out[i] += f
		added += f
	}
	out[0] = max(out[0]+toAdd-added, 0)
	return out
}

// TestProportionalScalingMidRollout: 10 -> 15 while old and new RSs are
// both active; sizes follow the formula with oldMax = 13 (annotation) and
// newMax = 15 + 3.
func TestProportionalScalingMidRollout(t *testing.T) {
	r := loadLibrary(t, "proportional-scaling")
	sm := r.Sess.Sim()
	r.stepUntil(t, "stall", actionRan("set image"), 10_000)
	r.stepUntil(t, "scale", actionRan("scale deployment/app to 15"), 100_000)
	old, cur := rsByImage(t, sm, "app", "app:v1"), rsByImage(t, sm, "app", "app:v2")
	before := []int32{*rsNamed(sm, old).Spec.Replicas, *rsNamed(sm, cur).Spec.Replicas}
	if before[0] < before[1] {
		t.Fatalf("sizes before the scale %v: the test assumes old >= new", before)
	}
	want := proportion(before, 13, 18)
	r.finish(t, false)
	got := []int32{*rsNamed(sm, old).Spec.Replicas, *rsNamed(sm, cur).Spec.Replicas}
	if !slices.Equal(got, want) || got[0]+got[1] != 18 {
		t.Errorf("after scale to 15: old,new = %v (from %v), want %v by the formula", got, before, want)
	}
	if before[0] != 8 || before[1] != 5 || want[0] != 11 || want[1] != 7 {
		t.Errorf("worked example: 8,5 -> 11,7; got %v -> %v", before, want)
	}
}
