package session

import (
	"os"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// loadLive loads a pasted `kubectl get deploy,rs,pods -o yaml` List.
func loadLive(t *testing.T, file string, specOnly bool) *Session {
	t.Helper()
	src, err := os.ReadFile("../scenario/testdata/live/" + file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadWith(file, src, LoadOptions{SpecOnly: specOnly})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// firstDecision returns the first NewRSMath and OldScaleDownMath the
// deployment controller records after set-up.
func firstDecision(t *testing.T, s *Session) (deployutil.NewRSMath, deployutil.OldScaleDownMath) {
	t.Helper()
	var newRS *deployutil.NewRSMath
	var old *deployutil.OldScaleDownMath
	for i := 0; i < 200 && (newRS == nil || old == nil); i++ {
		infos := s.Advance(ByEvent, 1)
		if len(infos) == 0 {
			break
		}
		for _, r := range s.Sim().Recorder().Records()[infos[0].FirstSeq-1 : infos[0].LastSeq] {
			switch d := r.Data.(type) {
			case deployutil.ReconcileNewMath:
				if newRS == nil && d.Sizing != nil {
					newRS = d.Sizing
				}
			case deployutil.OldScaleDownMath:
				if old == nil {
					old = &d
				}
			}
		}
	}
	if newRS == nil || old == nil {
		t.Fatal("the deployment controller made no rolling-update decision")
	}
	return *newRS, *old
}

// A rollout stuck at 5 of 10 new pods, none ready: step 0 shows the pasted
// numbers, and the controller's first decision is upstream's: no room to
// surge (13 = 10 + 3) and nothing may be scaled down (8 available = the
// minimum 10 - 2).
func TestLiveStuckRollout(t *testing.T) {
	s := loadLive(t, "stuck-rollout.yaml", false)
	v := s.View(ViewOptions{})
	if len(v.Deployments) != 1 || len(v.ReplicaSets) != 2 || v.PodTotal != 13 {
		t.Fatalf("step 0: %d deployments, %d replicasets, %d pods", len(v.Deployments), len(v.ReplicaSets), v.PodTotal)
	}
	d := v.Deployments[0]
	if d.Namespace != "shop" || d.Status != (StatusCount{Replicas: 13, Updated: 5, Ready: 8, Available: 8, Unavailable: 5}) || d.Revision != "2" || d.Generation != 4 {
		t.Fatalf("step 0 deployment: %+v", d)
	}
	want := map[string][3]int32{"web-7d9f8c6b54": {8, 8, 8}, "web-5c4b9f7d86": {5, 5, 0}} // desired, current, ready
	revs := map[string]string{"web-7d9f8c6b54": "1", "web-5c4b9f7d86": "2"}
	for _, rs := range v.ReplicaSets {
		if got := [3]int32{rs.Desired, rs.Current, rs.Ready}; got != want[rs.Name] || rs.Revision != revs[rs.Name] || rs.Owner != "web" {
			t.Errorf("step 0 %s: desired/current/ready %v revision %s owner %q", rs.Name, got, rs.Revision, rs.Owner)
		}
	}
	ready := 0
	for _, p := range v.Pods {
		if p.Phase != "Running" || p.Owner == "" || p.Node == "" {
			t.Errorf("step 0 pod %+v", p)
		}
		if p.Ready {
			ready++
		}
	}
	if ready != 8 {
		t.Errorf("step 0: %d ready pods, want 8", ready)
	}
	newRS, old := firstDecision(t, s)
	if !newRS.AtCapacity || newRS.MaxSurge != 3 || newRS.CurrentPods != 13 || newRS.Result != 5 {
		t.Errorf("first new-RS decision %+v", newRS)
	}
	if old.MinAvailable != 8 || old.NewRSUnavailable != 5 || old.MaxScaledDown != 0 {
		t.Errorf("first scale-down decision %+v", old)
	}
}

// Three of ten updated with maxSurge 1, maxUnavailable 0 and the fourth new
// pod still creating: nothing may move until it is ready; then the rollout
// completes.
func TestLiveThreeOfTen(t *testing.T) {
	s := loadLive(t, "three-of-ten.yaml", false)
	v := s.View(ViewOptions{})
	d := v.Deployments[0]
	if d.Status != (StatusCount{Replicas: 11, Updated: 4, Ready: 10, Available: 10, Unavailable: 1}) {
		t.Fatalf("step 0 deployment status %+v", d.Status)
	}
	pending := 0
	for _, p := range v.Pods {
		if p.Phase == "Pending" {
			pending++
		}
	}
	if pending != 1 || v.PodTotal != 11 {
		t.Fatalf("step 0: %d pending of %d pods", pending, v.PodTotal)
	}
	newRS, old := firstDecision(t, s)
	if !newRS.AtCapacity || newRS.MaxTotalPods != 11 || newRS.Result != 4 {
		t.Errorf("first new-RS decision %+v", newRS)
	}
	if old.MinAvailable != 10 || old.NewRSUnavailable != 1 || old.MaxScaledDown != 0 {
		t.Errorf("first scale-down decision %+v", old)
	}
	s.Advance(BySettle, 1)
	v = s.View(ViewOptions{})
	if st := v.Deployments[0].Status; st.Updated != 10 || st.Available != 10 || st.Replicas != 10 {
		t.Fatalf("after settling: %+v", st)
	}
}

// Spec-only: the ReplicaSets and Pods the Deployment manages are left out
// and the Deployment starts from its spec: a fresh rollout of revision 1.
func TestLiveSpecOnly(t *testing.T) {
	s := loadLive(t, "stuck-rollout.yaml", true)
	if n := len(s.Scenario().Objects); n != 1 {
		t.Fatalf("%d objects, want only the Deployment", n)
	}
	stripped := 0
	for _, n := range s.Scenario().Notices {
		if n.Code == scenario.NoticeStripped {
			stripped++
		}
	}
	if stripped != 16 {
		t.Errorf("%d stripped notices, want 16 (15 objects left out, 1 stripped)", stripped)
	}
	v := s.View(ViewOptions{})
	if len(v.ReplicaSets) != 0 || v.PodTotal != 0 || v.Deployments[0].Status != (StatusCount{}) || v.Deployments[0].Namespace != "shop" {
		t.Fatalf("step 0: %+v", v.Deployments[0])
	}
	s.Advance(BySettle, 1)
	if st := s.View(ViewOptions{}).Deployments[0].Status; st.Available != 10 {
		t.Fatalf("after settling: %+v", st)
	}
}

// Restoring pasted state is deterministic: two loads give the same trace,
// and a rewind (which rebuilds from the restored state) replays it exactly.
func TestLiveDeterministicReplay(t *testing.T) {
	a := loadLive(t, "three-of-ten.yaml", false)
	b := loadLive(t, "three-of-ten.yaml", false)
	a.Advance(BySettle, 1)
	b.Advance(BySettle, 1)
	if a.Sim().Recorder().Text() != b.Sim().Recorder().Text() {
		t.Fatal("two loads of the same live file diverge")
	}
	end := a.Step()
	want := a.Sim().Recorder().Text()
	if err := a.Seek(3); err != nil {
		t.Fatal(err)
	}
	if err := a.Seek(end); err != nil {
		t.Fatal(err)
	}
	if got := a.Sim().Recorder().Text(); got != want {
		t.Fatal("replay after a rewind differs from the first run")
	}
}
