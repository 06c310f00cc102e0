package deployment

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

func TestFirstSyncCreatesNewReplicaSet(t *testing.T) {
	f := newFixture(t)
	f.create(newDeployment("web", 3, "25%", "25%", "nginx:1"))
	if key := f.step(); key != "default/web" {
		t.Fatalf("synced %q", key)
	}
	rss := f.replicaSets()
	if len(rss) != 1 {
		t.Fatalf("want 1 RS, got %d", len(rss))
	}
	rs := rss[0]
	if *rs.Spec.Replicas != 3 {
		t.Errorf("new RS replicas = %d, want 3 (NewRSNewReplicas: min(3+1-0, 3-0))", *rs.Spec.Replicas)
	}
	for k, want := range map[string]string{
		deployutil.RevisionAnnotation:        "1",
		deployutil.DesiredReplicasAnnotation: "3",
		deployutil.MaxReplicasAnnotation:     "4",
	} {
		if got := rs.Annotations[k]; got != want {
			t.Errorf("annotation %s = %q, want %q", k, got, want)
		}
	}
	hash := rs.Labels[deployutil.DefaultPodTemplateHashLabel]
	if hash == "" || rs.Name != "web-"+hash || rs.Spec.Selector.MatchLabels[deployutil.DefaultPodTemplateHashLabel] != hash ||
		rs.Spec.Template.Labels[deployutil.DefaultPodTemplateHashLabel] != hash {
		t.Errorf("hash label/name/selector mismatch: name %s labels %v", rs.Name, rs.Labels)
	}
	if ref := rs.OwnerReferences; len(ref) != 1 || ref[0].Kind != "Deployment" || !*ref[0].Controller || !*ref[0].BlockOwnerDeletion {
		t.Errorf("owner refs %+v", ref)
	}
	want := fmt.Sprintf("Normal ScalingReplicaSet: Scaled up replica set %s from 0 to 3", rs.Name)
	if ev := f.events(); !hasEvent(ev, want) {
		t.Errorf("events %q lack %q", ev, want)
	}
	d := f.deployment("web")
	if d.Annotations[deployutil.RevisionAnnotation] != "1" {
		t.Errorf("deployment revision %q", d.Annotations[deployutil.RevisionAnnotation])
	}
	if c := condition(d, appsv1.DeploymentProgressing); c == nil || c.Reason != deployutil.ReasonNewRSCreated ||
		c.Message != fmt.Sprintf("Created new replica set %q", rs.Name) {
		t.Errorf("Progressing = %+v", c)
	}
	// getNewReplicaSet wrote the revision with UpdateStatus; the final
	// syncRolloutStatus write used the same cached resourceVersion: 409.
	fin := f.lastSync()
	if fin.Result != ResultRetry || fin.Path != PathRollingUpdate {
		t.Fatalf("first sync = %+v, want a conflict retry on the rolling path", fin)
	}
	if _, err := f.server.GetDeployment("default", "web"); err != nil {
		t.Fatal(err)
	}
	mustContain(t, []string{fin.Error}, "the object has been modified")
	// The retry (plus the enqueue caused by our own writes) brings the
	// status in.
	f.drain()
	d = f.deployment("web")
	if d.Status.ObservedGeneration != d.Generation || d.Status.Replicas != 0 || d.Status.UnavailableReplicas != 3 {
		t.Errorf("status after retry %+v", d.Status)
	}
}

// TestRollingUpdate10Surge3Unavailable2 walks upstream's worked example
// (reconcileOldReplicaSets comment): 10 replicas, maxSurge 3,
// maxUnavailable 2.
func TestRollingUpdate10Surge3Unavailable2(t *testing.T) {
	f := newFixture(t)
	f.create(newDeployment("web", 10, "3", "2", "nginx:1"))
	f.drain()
	f.settle()
	f.drain()
	d := f.deployment("web")
	if !deployutil.DeploymentComplete(d, &d.Status) {
		t.Fatalf("v1 not complete: %+v", d.Status)
	}

	f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	f.step()
	// One sync: new RS created at 3 (13 allowed, 10 running), then the
	// scale-up step has nothing to add, so the old RS goes 10 -> 8.
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{8, 3}) {
		t.Fatalf("after creating the new RS: %v, want [8 3]", got)
	}
	rss := f.replicaSets()
	oldName, newName := rss[0].Name, rss[1].Name
	if rss[1].Annotations[deployutil.RevisionAnnotation] != "2" {
		t.Errorf("new RS revision %q", rss[1].Annotations[deployutil.RevisionAnnotation])
	}
	f.setAvailable(oldName, 8)
	f.drain()
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{8, 5}) {
		t.Fatalf("second step: %v, want [8 5]", got)
	}
	// New pods are not available yet: no further scale-down.
	f.setAvailable(newName, 0)
	f.drain()
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{8, 5}) {
		t.Fatalf("while new pods unavailable: %v, want [8 5]", got)
	}
	f.setAvailable(newName, 5)
	f.drain()
	// old 8 -> 3 (available 13 - minAvailable 8), then new 5 -> 10.
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{3, 10}) {
		t.Fatalf("after new RS available: %v, want [3 10]", got)
	}
	f.setAvailable(oldName, 3)
	f.setAvailable(newName, 10)
	f.drain()
	if got := f.sizes(); !reflect.DeepEqual(got, []int32{0, 10}) {
		t.Fatalf("final: %v, want [0 10]", got)
	}
	f.setAvailable(oldName, 0)
	f.drain()
	d = f.deployment("web")
	c := condition(d, appsv1.DeploymentProgressing)
	if c == nil || c.Reason != deployutil.ReasonNewRSAvailable || c.Message != fmt.Sprintf("ReplicaSet %q has successfully progressed.", newName) {
		t.Errorf("Progressing = %+v", c)
	}
	if a := condition(d, appsv1.DeploymentAvailable); a == nil || a.Reason != deployutil.ReasonMinimumReplicasAvailable {
		t.Errorf("Available = %+v", a)
	}
	ev := f.events()
	for _, want := range []string{
		"Normal ScalingReplicaSet: Scaled up replica set " + newName + " from 0 to 3",
		"Normal ScalingReplicaSet: Scaled down replica set " + oldName + " from 10 to 8",
		"Normal ScalingReplicaSet: Scaled up replica set " + newName + " from 3 to 5",
		"Normal ScalingReplicaSet: Scaled down replica set " + oldName + " from 8 to 3",
		"Normal ScalingReplicaSet: Scaled up replica set " + newName + " from 5 to 10",
		"Normal ScalingReplicaSet: Scaled down replica set " + oldName + " from 3 to 0",
	} {
		if !hasEvent(ev, want) {
			t.Errorf("missing event %q in %q", want, ev)
		}
	}
	// Every scaling decision carries its math.
	mustContain(t, f.records("NewRSMath"), "maxTotalPods = replicas 10 + maxSurge 3 = 13; current 10; scale up min(13-10, 10-0) = 3 -> new RS 3")
	mustContain(t, f.records("OldScaleDownMath"), "maxScaledDown = allPods 13 - minAvailable (10-2=8) - newRS unavailable (3-0=3) = 2")
}

// TestConflictOnSecondDeploymentWrite checks the places where upstream's
// second Deployment write of one sync is refused with 409, because every
// write sends the sync's copy with the cached resourceVersion.
func TestConflictOnSecondDeploymentWrite(t *testing.T) {
	cases := []struct {
		name string
		// prepare brings the cluster to the state before the sync.
		prepare func(f *fixture)
		// first is the request that succeeds, second the one refused.
		first, second string
	}{
		{
			name:    "new RS: revision status write, then rollout status",
			prepare: func(f *fixture) { f.create(newDeployment("web", 2, "1", "0", "nginx:1")) },
			first:   "update deployments/status default/web -> 200",
			second:  "update deployments/status default/web -> 409",
		},
		{
			name: "pause: paused condition, then status of the paused sync",
			prepare: func(f *fixture) {
				f.create(newDeployment("web", 2, "1", "0", "nginx:1"))
				f.drain()
				f.settle()
				f.drain()
				f.mutate("web", func(d *appsv1.Deployment) { d.Spec.Paused = true })
			},
			first:  "update deployments/status default/web -> 200",
			second: "update deployments/status default/web -> 409",
		},
		{
			name: "rollback: revision status write, then the rollback Update",
			prepare: func(f *fixture) {
				f.create(newDeployment("web", 2, "1", "0", "nginx:1"))
				f.drain()
				f.settle()
				f.drain()
				// The template change and the rollback request arrive
				// together: the sync first creates the new RS (status write
				// with the revision), then sends the rollback Update.
				f.mutate("web", func(d *appsv1.Deployment) {
					d.Spec.Template.Spec.Containers[0].Image = "nginx:2"
					d.Annotations = map[string]string{deployutil.RollbackToAnnotation: "1"}
				})
			},
			first:  "update deployments/status default/web -> 200",
			second: "update deployments default/web -> 409",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			c.prepare(f)
			f.deliver()
			mark := f.rec.Len()
			err := f.dc.syncDeployment("default/web")
			if !apierrors.IsConflict(err) {
				t.Fatalf("sync error %v, want a 409 Conflict", err)
			}
			var writes []string
			for _, r := range f.rec.Records()[mark:] {
				if r.Source == "apiserver" && strings.Contains(r.Data.Text(), "deployment-controller update deployments") {
					writes = append(writes, strings.TrimPrefix(r.Data.Text(), "deployment-controller "))
				}
			}
			if len(writes) != 2 || !strings.HasPrefix(writes[0], c.first) || !strings.HasPrefix(writes[1], c.second) {
				t.Fatalf("deployment writes %q, want [%s..., %s...]", writes, c.first, c.second)
			}
			// Through the worker, the conflict is requeued rate-limited.
			f.dc.handleErr("default/web", err)
			if fin := f.lastSync(); fin.Result != ResultRetry || f.dc.Queue().NumRequeues("default/web") != 1 {
				t.Fatalf("handleErr: %+v", fin)
			}
		})
	}
}
