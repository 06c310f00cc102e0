package session

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
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

// deploymentOnly is testdata/live/deployment-only.yaml with each edit's
// text (which must be in it) replaced by the edit's wherever it occurs.
func deploymentOnly(t *testing.T, edits ...[2]string) string {
	t.Helper()
	src, err := os.ReadFile("../scenario/testdata/live/deployment-only.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for _, e := range edits {
		if !strings.Contains(text, e[0]) {
			t.Fatalf("%q not in deployment-only.yaml", e[0])
		}
		text = strings.ReplaceAll(text, e[0], e[1])
	}
	return text
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

// A settled Deployment pasted alone (`kubectl get deployment -o yaml`):
// its status is taken as one ReplicaSet of its template with that many
// running, ready pods, so the cluster starts as the status says, nothing
// is created anew, and a change rolls out from it (revision 7 -> 8).
func TestLiveDeploymentOnly(t *testing.T) {
	s := loadLive(t, "deployment-only.yaml", false)
	filled := 0
	for _, n := range s.Scenario().Notices {
		if n.Code == scenario.NoticeLive && strings.Contains(n.Message, "is taken as ReplicaSet checkout-") {
			filled++
		}
	}
	if filled != 1 {
		t.Fatalf("%d notices say what was filled in, want 1: %+v", filled, s.Scenario().Notices)
	}
	v := s.View(ViewOptions{})
	if len(v.ReplicaSets) != 1 || v.PodTotal != 6 {
		t.Fatalf("step 0: %d replicasets, %d pods", len(v.ReplicaSets), v.PodTotal)
	}
	old := v.ReplicaSets[0]
	if old.Owner != "checkout" || old.Revision != "7" || old.Namespace != "payments" || old.Desired != 6 || old.Current != 6 || old.Ready != 6 || old.Available != 6 {
		t.Fatalf("step 0 replicaset %+v", old)
	}
	perNode := map[string]int{}
	pods := map[string]bool{}
	for _, p := range v.Pods {
		if p.Phase != "Running" || !p.Ready || !p.Available || p.Owner != old.Name {
			t.Errorf("step 0 pod %+v", p)
		}
		perNode[p.Node]++
		pods[p.Name] = true
	}
	if perNode["node-1"] != 2 || perNode["node-2"] != 2 || perNode["node-3"] != 2 {
		t.Errorf("pods per node %v, want 2 on each default node", perNode)
	}
	if d := v.Deployments[0]; d.Status != (StatusCount{Replicas: 6, Updated: 6, Ready: 6, Available: 6}) || d.Revision != "7" {
		t.Fatalf("step 0 deployment %+v", d)
	}

	// Left alone, the controllers find it as they would in the cluster.
	s.Advance(BySettle, 1)
	v = s.View(ViewOptions{})
	if len(v.ReplicaSets) != 1 || v.PodTotal != 6 {
		t.Fatalf("settled: %d replicasets, %d pods", len(v.ReplicaSets), v.PodTotal)
	}
	for _, p := range v.Pods {
		if !pods[p.Name] {
			t.Errorf("settled: pod %s was created", p.Name)
		}
	}

	// A new image rolls out from the six pods: maxSurge 25% of 6 rounds up
	// to 2 (8 pods at most), maxUnavailable 25% rounds down to 1 (5 must
	// stay available), so one old pod may go once the new ReplicaSet has 2.
	if _, err := s.Apply(scenario.Action{Type: scenario.ActionSetImage, Namespace: "payments", Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "checkout"}, Image: "ghcr.io/acme/checkout:2.4.0"}); err != nil {
		t.Fatal(err)
	}
	newRS, scaleDown := firstDecision(t, s)
	if newRS.MaxSurge != 2 || newRS.MaxTotalPods != 8 || newRS.Result != 2 || scaleDown.MinAvailable != 5 || scaleDown.OldPods != 6 || scaleDown.MaxScaledDown != 1 {
		t.Errorf("first decisions of the rollout: %+v, %+v", newRS, scaleDown)
	}
	s.Advance(BySettle, 1)
	v = s.View(ViewOptions{})
	for _, rs := range v.ReplicaSets {
		switch {
		case rs.Name == old.Name:
			if rs.Desired != 0 {
				t.Errorf("settled after the new image: old replicaset %+v", rs)
			}
		case rs.Revision != "8" || rs.Available != 6:
			t.Errorf("settled after the new image: new replicaset %+v", rs)
		}
	}
}

// A Deployment pasted alone in the middle of a rollout, or whose status
// describes an older generation, cannot be filled in: it starts without
// pods, and a notice says so and what to paste instead.
func TestLiveDeploymentOnlyNotSettled(t *testing.T) {
	for name, edit := range map[string][2]string{
		"rollout in progress": {"  updatedReplicas: 6", "  updatedReplicas: 3"},
		"older generation":    {"  generation: 12", "  generation: 13"},
		"not all available":   {"  availableReplicas: 6", "  availableReplicas: 5"},
	} {
		text := deploymentOnly(t, edit)
		s, err := Load(name+".yaml", []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(s.Scenario().Objects); n != 1 {
			t.Errorf("%s: %d objects, want the Deployment alone", name, n)
		}
		said := false
		for _, n := range s.Scenario().Notices {
			said = said || n.Code == scenario.NoticeLive && strings.Contains(n.Message, "creates a ReplicaSet and its pods anew") &&
				strings.Contains(n.Message, "kubectl get deployment,replicaset,pod -n payments -o yaml")
		}
		if !said {
			t.Errorf("%s: no notice says the pods are created anew: %+v", name, s.Scenario().Notices)
		}
		if v := s.View(ViewOptions{}); v.PodTotal != 0 || len(v.ReplicaSets) != 0 {
			t.Errorf("%s: step 0 has %d replicasets and %d pods", name, len(v.ReplicaSets), v.PodTotal)
		}
	}
}

// The filled-in pods are as old as the Deployment's last progress, rebased
// with everything else, and at least minReadySeconds older than the start
// (so available at step 0, as the status says). The ReplicaSet takes the
// name the Progressing condition gives it, and the pods go on the
// Scenario's nodes when it names them.
func TestLiveDeploymentOnlyTimesAndNames(t *testing.T) {
	text := deploymentOnly(t,
		// The latest timestamp is now the Available condition's last update,
		// 2026-11-21T00:00:00Z, about 14 hours after the last progress.
		[2]string{"    lastUpdateTime: \"2026-09-14T08:13:40Z\"", "    lastUpdateTime: \"2026-11-21T00:00:00Z\""},
		[2]string{"  progressDeadlineSeconds: 600", "  minReadySeconds: 30\n  progressDeadlineSeconds: 600"},
	)
	latest := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	progressed := time.Date(2026, 11, 20, 10, 2, 10, 0, time.UTC)
	for _, c := range []struct {
		name, edit string
		since      time.Time // before rebasing
		nodes      []string
	}{
		{"ready when it last progressed", "", progressed, []string{"node-1", "node-2", "node-3"}},
		{"minReadySeconds longer ago", "  minReadySeconds: 100000\n  progressDeadlineSeconds: 200000", latest.Add(-100000 * time.Second), []string{"node-1", "node-2", "node-3"}},
		{"the Scenario's nodes", "", progressed, []string{"a", "b"}},
	} {
		file := text
		if c.edit != "" {
			file = strings.Replace(file, "  minReadySeconds: 30\n  progressDeadlineSeconds: 600", c.edit, 1)
		}
		if c.nodes[0] == "a" {
			file = "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: checkout}\nspec:\n  cluster: {nodes: [a, b]}\n---\n" + file
		}
		s, err := Load(c.name+".yaml", []byte(file), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := clock.Epoch.Add(c.since.Sub(latest)) // latest is rebased to the start
		pods := s.Sim().Server().ListPods("payments", nil)
		if len(pods) != 6 {
			t.Fatalf("%s: %d pods", c.name, len(pods))
		}
		perNode := map[string]int{}
		for _, p := range pods {
			ready := podutil.PodReadySince(p)
			if !p.CreationTimestamp.Time.Equal(want) || !ready.Equal(want) || !strings.HasPrefix(p.Name, "checkout-6d9f7c8b5d-") {
				t.Errorf("%s: pod %s created %v, ready since %v; want %v", c.name, p.Name, p.CreationTimestamp.Time, ready, want)
			}
			perNode[p.Spec.NodeName]++
		}
		for _, n := range c.nodes {
			if perNode[n] != 6/len(c.nodes) {
				t.Errorf("%s: pods per node %v, want %d on each of %v", c.name, perNode, 6/len(c.nodes), c.nodes)
			}
		}
		for _, p := range s.View(ViewOptions{}).Pods {
			if !p.Available {
				t.Errorf("%s: pod %s not available at step 0", c.name, p.Name)
			}
		}
	}
}

// The pods set-up fills in for a Deployment pasted alone carry their
// anti-affinity terms as the API server stored them, matchLabelKeys
// merged: three pods, one a node, that keep pods of their own template
// hash apart let a surge pod of the new template onto any node, and the
// rollout with maxUnavailable 0 completes.
func TestLiveFilledPodsMergeMatchLabelKeys(t *testing.T) {
	text := deploymentOnly(t,
		[2]string{"  replicas: 6", "  replicas: 3"},
		[2]string{"Replicas: 6", "Replicas: 3"},
		[2]string{"      maxSurge: 25%\n      maxUnavailable: 25%", "      maxSurge: 1\n      maxUnavailable: 0"},
		[2]string{"    spec:\n      containers:", "    spec:\n      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - labelSelector: {matchLabels: {app: checkout}}\n            topologyKey: kubernetes.io/hostname\n            matchLabelKeys: [pod-template-hash]\n      containers:"},
	)
	s, err := Load("anti.yaml", []byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	pods := s.Sim().Server().ListPods("payments", nil)
	if len(pods) != 3 {
		t.Fatalf("%d pods filled in, want 3", len(pods))
	}
	for _, p := range pods {
		term := p.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0]
		want := []metav1.LabelSelectorRequirement{{Key: "pod-template-hash", Operator: metav1.LabelSelectorOpIn, Values: []string{p.Labels["pod-template-hash"]}}}
		if !reflect.DeepEqual(term.LabelSelector.MatchExpressions, want) {
			t.Errorf("pod %s: selector expressions %+v, want %+v", p.Name, term.LabelSelector.MatchExpressions, want)
		}
	}
	if _, err := s.Apply(scenario.Action{Type: scenario.ActionSetImage, Namespace: "payments", Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "checkout"}, Image: "ghcr.io/acme/checkout:2.4.0"}); err != nil {
		t.Fatal(err)
	}
	s.Advance(BySettle, 1)
	d, err := s.Sim().Server().GetDeployment("payments", "checkout")
	if err != nil {
		t.Fatal(err)
	}
	if st := d.Status; st.UpdatedReplicas != 3 || st.AvailableReplicas != 3 || st.Replicas != 3 {
		t.Errorf("after the new image: %d updated, %d available, %d in all; want the rollout complete (3, 3, 3)", st.UpdatedReplicas, st.AvailableReplicas, st.Replicas)
	}
}
