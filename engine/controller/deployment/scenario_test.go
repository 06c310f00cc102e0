package deployment

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// rollout creates d, lets it complete, and returns the fixture.
func completed(t *testing.T, d *appsv1.Deployment) *fixture {
	t.Helper()
	f := newFixture(t)
	f.create(d)
	f.drain()
	f.settle()
	f.drain()
	return f
}

// finish marks every ReplicaSet available until the rollout stops moving.
func (f *fixture) finish() {
	for i := 0; i < 10; i++ {
		f.settle()
		f.drain()
	}
}

func TestPauseScaleResume(t *testing.T) {
	f := completed(t, newDeployment("web", 4, "1", "1", "nginx:1"))
	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Paused = true })
	f.drain()
	d := f.deployment("web")
	c := condition(d, appsv1.DeploymentProgressing)
	if c == nil || c.Status != corev1.ConditionUnknown || c.Reason != deployutil.ReasonPaused || c.Message != "Deployment is paused" {
		t.Fatalf("Progressing while paused = %+v", c)
	}
	mustContain(t, f.records("PathDecision"), "default/web path paused-sync: spec.paused is true")

	// A template change while paused creates nothing.
	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	f.drain()
	if n := len(f.replicaSets()); n != 1 {
		t.Fatalf("paused deployment created a ReplicaSet (%d)", n)
	}
	// Scaling still applies while paused.
	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Replicas = ptr(int32(6)) })
	f.drain()
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{6}) {
		t.Fatalf("paused scale: %v, want [6]", got)
	}
	rs := f.replicaSets()[0]
	if rs.Annotations[deployutil.DesiredReplicasAnnotation] != "6" || rs.Annotations[deployutil.MaxReplicasAnnotation] != "7" {
		t.Errorf("annotations after paused scale %v", rs.Annotations)
	}

	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Paused = false })
	f.step()
	d = f.deployment("web")
	if c := condition(d, appsv1.DeploymentProgressing); c == nil || c.Reason != deployutil.ReasonResumed || c.Message != "Deployment is resumed" || c.Status != corev1.ConditionUnknown {
		t.Fatalf("Progressing after resume = %+v", c)
	}
	f.finish()
	rss := f.replicaSets()
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{0, 6}) {
		t.Fatalf("after resume %v, want [0 6]", got)
	}
	d = f.deployment("web")
	if c := condition(d, appsv1.DeploymentProgressing); c == nil || c.Reason != deployutil.ReasonNewRSAvailable {
		t.Fatalf("Progressing after resumed rollout = %+v", c)
	}
	if rss[1].Spec.Template.Spec.Containers[0].Image != "nginx:2" {
		t.Errorf("new RS image %s", rss[1].Spec.Template.Spec.Containers[0].Image)
	}
}

func ptr[T any](v T) *T { return &v }

func TestProportionalScalingMidRollout(t *testing.T) {
	f := completed(t, newDeployment("web", 10, "3", "2", "nginx:1"))
	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	f.step()
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{8, 3}) {
		t.Fatalf("mid rollout %v, want [8 3]", got)
	}
	f.drain() // the conflict retry scales new to 5
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{8, 5}) {
		t.Fatalf("mid rollout %v, want [8 5]", got)
	}
	oldName := f.replicaSets()[0].Name
	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Replicas = ptr(int32(20)) })
	f.step()
	// allowed 20+3 = 23, toAdd 23-13 = 10; old 8: round(8*23/13 = 14.15)-8
	// = +6; new 5: round(5*23/13 = 8.85)-5 = +4; leftover 0.
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{14, 9}) {
		t.Fatalf("proportional %v, want [14 9]", got)
	}
	mustContain(t, f.records("PathDecision"), "path scaling-event-sync: RS "+oldName+" has desired-replicas 10 != 20")
	mustContain(t, f.records("ScaleMath"), "allowed = replicas 20 + maxSurge 3 = 23; current 13; toAdd +10")
	for _, rs := range f.replicaSets() {
		if rs.Annotations[deployutil.DesiredReplicasAnnotation] != "20" || rs.Annotations[deployutil.MaxReplicasAnnotation] != "23" {
			t.Errorf("%s annotations %v", rs.Name, rs.Annotations)
		}
	}
	if !hasEvent(f.events(), "Normal ScalingReplicaSet: Scaled up replica set "+oldName+" from 8 to 14") {
		t.Errorf("events %q", f.events())
	}
}

func TestRollbackAnnotation(t *testing.T) {
	f := completed(t, newDeployment("web", 2, "1", "0", "nginx:1"))
	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	f.finish()
	rss := f.replicaSets()
	v1, v2 := rss[0].Name, rss[1].Name
	genBefore := f.deployment("web").Generation

	f.mutate("web", func(d *appsv1.Deployment) { d.Annotations[deployutil.RollbackToAnnotation] = "0" })
	f.step()
	d := f.deployment("web")
	if _, ok := d.Annotations[deployutil.RollbackToAnnotation]; ok {
		t.Fatalf("rollback annotation not cleared")
	}
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "nginx:1" {
		t.Fatalf("template image %s after rollback, want nginx:1", img)
	}
	if _, ok := d.Spec.Template.Labels[deployutil.DefaultPodTemplateHashLabel]; ok {
		t.Errorf("hash label copied into the deployment template")
	}
	if d.Generation <= genBefore {
		t.Errorf("generation %d not bumped (was %d)", d.Generation, genBefore)
	}
	if !hasEvent(f.events(), `Normal DeploymentRollback: Rolled back deployment "web" to revision 1`) {
		t.Errorf("events %q", f.events())
	}
	f.finish()
	got := map[string]*appsv1.ReplicaSet{}
	for _, rs := range f.replicaSets() {
		got[rs.Name] = rs
	}
	if len(got) != 2 || *got[v1].Spec.Replicas != 2 || *got[v2].Spec.Replicas != 0 {
		t.Fatalf("after rollback sizes %v", f.sizes())
	}
	if r := got[v1].Annotations[deployutil.RevisionAnnotation]; r != "3" {
		t.Errorf("rolled-back RS revision %s, want 3", r)
	}
	if h := got[v1].Annotations[deployutil.RevisionHistoryAnnotation]; h != "1" {
		t.Errorf("revision-history %q, want \"1\"", h)
	}

	// A revision nobody has: warning event, annotation removed.
	f.mutate("web", func(d *appsv1.Deployment) { d.Annotations[deployutil.RollbackToAnnotation] = "7" })
	f.drain()
	if !hasEvent(f.events(), "Warning DeploymentRollbackRevisionNotFound: Unable to find the revision to rollback to.") {
		t.Errorf("events %q", f.events())
	}
	// The current revision: same template.
	f.mutate("web", func(d *appsv1.Deployment) { d.Annotations[deployutil.RollbackToAnnotation] = "3" })
	f.drain()
	if !hasEvent(f.events(), `Warning DeploymentRollbackTemplateUnchanged: The rollback revision contains the same template as current deployment "web"`) {
		t.Errorf("events %q", f.events())
	}
	if _, ok := f.deployment("web").Annotations[deployutil.RollbackToAnnotation]; ok {
		t.Errorf("rollback annotation not cleared")
	}
}

func TestProgressDeadlineExceeded(t *testing.T) {
	d := newDeployment("web", 2, "1", "0", "nginx:1")
	d.Spec.ProgressDeadlineSeconds = ptr(int32(30))
	f := newFixture(t)
	f.create(d)
	f.drain()
	rs := f.replicaSets()[0]
	// Nothing becomes available. The unchanged status makes
	// requeueStuckDeployment schedule a re-check at deadline + 1s.
	mustContain(t, f.records("RolloutStatusDecision"), "requeue after 31s")
	// Let the 5ms backoff of the first sync's 409 retry fire first.
	f.advance(10 * time.Millisecond)
	f.drain()
	next, ok := f.dc.Queue().NextReadyAt()
	if !ok || next.Sub(f.clock.Start()) != 31*time.Second {
		t.Fatalf("next ready at %v (ok %t), want start+31s", next.Sub(f.clock.Start()), ok)
	}
	f.clock.AdvanceTo(next)
	f.step()
	dd := f.deployment("web")
	c := condition(dd, appsv1.DeploymentProgressing)
	want := fmt.Sprintf("ReplicaSet %q has timed out progressing.", rs.Name)
	if c == nil || c.Status != corev1.ConditionFalse || c.Reason != deployutil.ReasonTimedOut || c.Message != want {
		t.Fatalf("Progressing = %+v", c)
	}
	// Once timed out no further deadline re-checks are scheduled.
	f.drain()
	mustContain(t, f.records("RolloutStatusDecision"), "already timed out -> no requeue")
	if _, ok := f.dc.Queue().NextReadyAt(); ok {
		t.Errorf("a deadline re-check is still scheduled after timing out")
	}
	// Progress resets the condition to ReplicaSetUpdated.
	f.setAvailable(rs.Name, 1)
	f.drain()
	if c := condition(f.deployment("web"), appsv1.DeploymentProgressing); c == nil || c.Reason != deployutil.ReasonRSUpdated || c.Status != corev1.ConditionTrue {
		t.Fatalf("Progressing after progress = %+v", c)
	}
}

func TestStuckRequeueRateLimitedUnderOneSecond(t *testing.T) {
	d := newDeployment("web", 2, "1", "0", "nginx:1")
	d.Spec.ProgressDeadlineSeconds = ptr(int32(30))
	f := newFixture(t)
	f.create(d)
	f.drain()
	f.advance(29*time.Second + 500*time.Millisecond)
	f.dc.Queue().Add("default/web", "test")
	f.step()
	mustContain(t, f.records("RolloutStatusDecision"), "< 1s -> requeue rate-limited")
	if f.dc.Queue().NumRequeues("default/web") != 0 {
		t.Errorf("the successful sync must Forget the key after its rate-limited re-add")
	}
}

func TestRevisionHistoryLimit(t *testing.T) {
	for _, limit := range []int32{0, 1} {
		t.Run(fmt.Sprint("limit ", limit), func(t *testing.T) {
			d := newDeployment("web", 2, "1", "0", "nginx:1")
			d.Spec.RevisionHistoryLimit = ptr(limit)
			f := completed(t, d)
			first := f.replicaSets()[0].Name
			for _, img := range []string{"nginx:2", "nginx:3"} {
				f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = img })
				f.finish()
			}
			var names []string
			for _, rs := range f.replicaSets() {
				names = append(names, rs.Name+"@"+rs.Annotations[deployutil.RevisionAnnotation])
			}
			if len(names) != int(limit)+1 {
				t.Fatalf("kept %v, want the new RS plus %d old", names, limit)
			}
			for _, rs := range f.replicaSets() {
				if rs.Name == first {
					t.Errorf("revision 1 (%s) survived with limit %d", first, limit)
				}
			}
			mustContain(t, f.records("CleanupPlan"), "cleanupDeployment: cleanable")
		})
	}
}

// TestDroppedAfterMaxRetries keeps the cache stale (the Deployment was
// re-created, the cache still has the old UID) so that every sync fails in
// CanAdopt: the key is requeued 15 times and then dropped.
func TestDroppedAfterMaxRetries(t *testing.T) {
	f := newFixture(t)
	f.create(newDeployment("web", 1, "1", "0", "nginx:1"))
	f.drain()
	f.finish()
	f.orphanDelete("web")
	f.create(newDeployment("web", 1, "1", "0", "nginx:1"))
	// Deliver ReplicaSet events only: the Deployment cache keeps the old UID.
	deliverRS := func() {
		f.rsInf.Observe()
		for f.rsInf.DeliverNext() {
		}
	}
	deliverRS()
	f.dc.Queue().Add("default/web", "test")
	for i := 0; i <= maxRetries; i++ {
		if next, ok := f.dc.Queue().NextReadyAt(); ok {
			f.clock.AdvanceTo(next)
		}
		f.dc.Queue().PromoteDue()
		if _, ok := f.dc.ProcessNextWorkItem(); !ok {
			t.Fatalf("sync %d: nothing ready", i)
		}
		deliverRS()
		fin := f.lastSync()
		if i < maxRetries && (fin.Result != ResultRetry || fin.Requeues != i+1) {
			t.Fatalf("sync %d: %+v", i, fin)
		}
		if i == maxRetries && fin.Result != ResultDropped {
			t.Fatalf("sync %d: %+v, want dropped", i, fin)
		}
	}
	mustContain(t, f.records("SyncFinished"), "is gone: got uid")
	if f.dc.Queue().NumRequeues("default/web") != 0 || f.dc.Queue().Len() != 0 {
		t.Errorf("dropped key still tracked")
	}
	if _, ok := f.dc.Queue().NextReadyAt(); ok {
		t.Errorf("dropped key still waiting")
	}
}

func TestHashCollisionBumpsCollisionCount(t *testing.T) {
	f := newFixture(t)
	stored := f.create(newDeployment("web", 2, "1", "0", "nginx:1"))
	hash := deployutil.ComputeHash(&stored.Spec.Template, nil)
	squatter := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-" + hash, Namespace: "default", Labels: map[string]string{"app": "other"}},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: ptr(int32(0)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "other"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "x", Image: "busybox"}}},
			},
		},
	}
	if _, err := f.server.CreateReplicaSet("test", squatter); err != nil {
		t.Fatal(err)
	}
	f.step()
	fin := f.lastSync()
	if fin.Result != ResultRetry {
		t.Fatalf("collision sync %+v", fin)
	}
	mustContain(t, []string{fin.Error}, "already exists")
	if cc := f.deployment("web").Status.CollisionCount; cc == nil || *cc != 1 {
		t.Fatalf("collisionCount %v, want 1", cc)
	}
	mustContain(t, f.records("RevisionDecision"), "hash collision")
	f.drain()
	var ours *appsv1.ReplicaSet
	for _, rs := range f.replicaSets() {
		if rs.Name != squatter.Name {
			ours = rs
		}
	}
	if ours == nil || ours.Name != "web-"+deployutil.ComputeHash(&stored.Spec.Template, ptr(int32(1))) {
		t.Fatalf("new RS after collision: %v", ours)
	}
}

func TestOrphanReplicaSetIsAdoptedAsNewRS(t *testing.T) {
	f := completed(t, newDeployment("web", 2, "1", "0", "nginx:1"))
	rsName := f.replicaSets()[0].Name
	f.orphanDelete("web")
	f.deliver()
	f.create(newDeployment("web", 2, "1", "0", "nginx:1"))
	f.drain()
	rss := f.replicaSets()
	if len(rss) != 1 || rss[0].Name != rsName {
		t.Fatalf("want the orphan %s adopted as the new RS, got %v", rsName, f.sizes())
	}
	d := f.deployment("web")
	if ref := rss[0].OwnerReferences; len(ref) != 1 || ref[0].UID != d.UID {
		t.Fatalf("orphan not adopted: %+v", ref)
	}
	mustContain(t, f.records("Summary"), "adopted 1 ["+rsName+"]")
	// The adopted RS is found, not created: FoundNewReplicaSet, and no
	// scaling event for it.
	mustContain(t, f.records("ConditionChange"), `Progressing: absent -> True/FoundNewReplicaSet "Found new replica set \"`+rsName+`\""`)
}

func TestRollbackWithoutHistory(t *testing.T) {
	f := completed(t, newDeployment("web", 1, "1", "0", "nginx:1"))
	f.mutate("web", func(d *appsv1.Deployment) { d.Annotations = map[string]string{deployutil.RollbackToAnnotation: "0"} })
	f.drain()
	if !hasEvent(f.events(), "Warning DeploymentRollbackRevisionNotFound: Unable to find last revision.") {
		t.Fatalf("events %q", f.events())
	}
	if _, ok := f.deployment("web").Annotations[deployutil.RollbackToAnnotation]; ok {
		t.Errorf("rollback annotation not cleared")
	}
}

func TestReplicaFailureConditionIsCopied(t *testing.T) {
	f := completed(t, newDeployment("web", 2, "1", "0", "nginx:1"))
	cur := f.replicaSets()[0].DeepCopy()
	failedAt := metav1.NewTime(f.clock.Now())
	cur.Status.Conditions = []appsv1.ReplicaSetCondition{{
		Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate",
		Message: "pods \"web-x\" is forbidden: exceeded quota", LastTransitionTime: failedAt,
	}}
	if _, err := f.server.UpdateReplicaSetStatus("test", cur); err != nil {
		t.Fatal(err)
	}
	f.advance(time.Second)
	f.drain()
	c := condition(f.deployment("web"), appsv1.DeploymentReplicaFailure)
	if c == nil || c.Reason != "FailedCreate" || c.Status != corev1.ConditionTrue || !c.LastUpdateTime.Equal(&failedAt) {
		t.Fatalf("ReplicaFailure = %+v", c)
	}
	// Gone from the RS, gone from the Deployment.
	cur = f.replicaSets()[0].DeepCopy()
	cur.Status.Conditions = nil
	if _, err := f.server.UpdateReplicaSetStatus("test", cur); err != nil {
		t.Fatal(err)
	}
	f.drain()
	if c := condition(f.deployment("web"), appsv1.DeploymentReplicaFailure); c != nil {
		t.Fatalf("ReplicaFailure not removed: %+v", c)
	}
}

// TestAlreadyExistsNotInCache: the name is taken but the cache has not seen
// the holder yet; the sync fails with the lister's NotFound and nothing else
// changes (no collisionCount bump).
func TestAlreadyExistsNotInCache(t *testing.T) {
	f := newFixture(t)
	stored := f.create(newDeployment("web", 2, "1", "0", "nginx:1"))
	squatter := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-" + deployutil.ComputeHash(&stored.Spec.Template, nil), Namespace: "default", Labels: map[string]string{"app": "other"}},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: ptr(int32(0)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "other"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "x", Image: "busybox"}}},
			},
		},
	}
	if _, err := f.server.CreateReplicaSet("test", squatter); err != nil {
		t.Fatal(err)
	}
	f.dInf.Observe()
	for f.dInf.DeliverNext() {
	}
	err := f.dc.syncDeployment("default/web")
	if !apierrors.IsNotFound(err) || err.Error() != `replicaset.apps "`+squatter.Name+`" not found` {
		t.Fatalf("error %v, want the lister's NotFound", err)
	}
	if f.deployment("web").Status.CollisionCount != nil {
		t.Errorf("collisionCount bumped")
	}
}
