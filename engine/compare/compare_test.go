package compare

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// surgeSource is scenarios/compare-max-surge.yaml.
func surgeSource(t *testing.T) []byte {
	t.Helper()
	src, ok := scenarios.Source("compare-max-surge")
	if !ok {
		t.Fatal("no library scenario compare-max-surge")
	}
	return src
}

// want is the part of a Summary the rollout math fixes.
type want struct {
	completeAt          time.Duration
	peakPods, peakSurge int
	peakRSTotal         int32
	minAvailable        int
	created, deleted    int
}

func check(t *testing.T, label string, s Summary, w want) {
	t.Helper()
	got := want{s.CompleteAt, s.PeakPods, s.PeakSurge, s.PeakReplicaSetTotal, s.MinAvailable, s.PodsCreated, s.PodsDeleted}
	if !s.Complete || got != w {
		t.Errorf("%s: complete=%v %+v, want %+v", label, s.Complete, got, w)
	}
}

// scenarios/compare-max-surge.yaml creates a 20-replica Deployment (maxSurge 1,
// maxUnavailable 25% = 5) and sets a new image once it is rolled out. Pods
// take 3s from creation to available (kubelet default: start 2s, ready 1s),
// so the creation completes at +3s; the rollout then runs in waves of 3s:
//
//   - maxSurge 1: the new RS starts at 20+1-20 = 1 and the old one drops to
//     20-5 = 15; then the new one grows to 21-15 = 6. Each wave of 6 becoming
//     available lets the old RS drop by 6 and the new one grow by 6:
//     6, 12, 18, 20: four waves, complete at 3+4×3 = 15s. The RS total peaks
//     at 21.
//   - maxSurge 25% (= 5, rounded up): new 5, old 15, then new 25-15 = 10; ten
//     available → old 5, new 20; two waves, complete at 3+2×3 = 9s; RS total
//     peaks at 25.
//   - maxSurge 100% (= 20): the new RS is created at 20 and the old one drops
//     to 15 in the same sync (RS total 35); one wave, complete at 6s. The 20
//     new pods are created before the old RS's 5 deletions, so 40 pods are
//     active at once: the surge the RS total does not show.
//
// In every case the old RS is cut by maxUnavailable = 5 at once, so 15 pods
// stay available (minAvailable), and 20 new pods are created on top of the
// creation's 20 while 20 old ones are deleted.
func TestMaxSurge(t *testing.T) {
	src := surgeSource(t)
	surge1 := want{15 * time.Second, 21, 1, 21, 15, 40, 20}
	for _, tc := range []struct {
		set   string
		b     want
		onlyB string
	}{
		{"25%", want{9 * time.Second, 25, 5, 25, 15, 40, 20}, "Scaled up replica set web-7f6f88cb57 from 0 to 5"},
		// The ReplicaSet total reaches replicas + maxSurge in every run: 40
		// only within the sync that creates the new ReplicaSet at 20 and
		// then scales the old one 20 -> 15 (after the step it is 35).
		{"100%", want{6 * time.Second, 40, 20, 40, 15, 40, 20}, "Scaled up replica set web-7f6f88cb57 from 0 to 20"},
	} {
		t.Run(tc.set, func(t *testing.T) {
			o, err := ParseOverride("spec.strategy.rollingUpdate.maxSurge=" + tc.set)
			if err != nil {
				t.Fatal(err)
			}
			r, err := WithOverrides("surge-1.yaml", src, []Override{o}, nil)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "A", r.A, surge1)
			check(t, "B", r.B, tc.b)
			if r.A.Label != "surge-1.yaml" || r.B.Label != "spec.strategy.rollingUpdate.maxSurge="+tc.set {
				t.Errorf("labels %q %q", r.A.Label, r.B.Label)
			}
			// Both creations scale the new RS to 20 at once; the first
			// difference is the creation's math naming maxSurge.
			d := r.Divergence
			if d == nil || d.Step != 2 || !strings.Contains(d.RecordA, "maxSurge 1 = 21") || !strings.Contains(d.Words, "The runs part at step 2 (+0.000s): both take sync deployment-controller default/web but record") {
				t.Fatalf("divergence %+v", d)
			}
			if !hasLine(r.Events.OnlyA, "Scaled up replica set web-7f6f88cb57 from 0 to 1") || !hasLine(r.Events.OnlyB, tc.onlyB) {
				t.Errorf("event diff lacks the first scale-up: %+v", r.Events)
			}
			if hasLine(r.Events.OnlyA, "Scaled up replica set web-7b786dbddb from 0 to 20") {
				t.Errorf("the common creation event is listed as only in A")
			}
		})
	}
}

func hasLine(lines []EventLine, suffix string) bool {
	for _, l := range lines {
		if strings.HasSuffix(l.Line, suffix) {
			return true
		}
	}
	return false
}

// A file compared with itself: same numbers, no divergence, no event only in
// one run; and the result is the same byte for byte every time.
func TestSameFile(t *testing.T) {
	src := surgeSource(t)
	r1, err := Files("a.yaml", src, "b.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Divergence != nil || len(r1.Events.OnlyA)+len(r1.Events.OnlyB) != 0 || r1.Events.Common == 0 {
		t.Fatalf("divergence %+v, events %+v", r1.Divergence, r1.Events)
	}
	r1.B.Label = r1.A.Label
	ja, _ := json.Marshal(r1.A)
	jb, _ := json.Marshal(r1.B)
	if string(ja) != string(jb) {
		t.Errorf("summaries differ:\n%s\n%s", ja, jb)
	}
	r2, _ := Files("a.yaml", src, "b.yaml", src, nil)
	r2.B.Label = r2.A.Label
	j2, _ := json.Marshal(r2)
	j1, _ := json.Marshal(r1)
	if string(j1) != string(j2) {
		t.Error("two comparisons of the same files differ")
	}
}

// Fork at the step where the user set a new image: A keeps it; B scales to
// 30 instead. A's rollout is the maxSurge-1 one seen from the fork (12s:
// four waves of 3s); B never changes the image: 10 pods created, none
// deleted, 30 at the peak. B's minimum available counts from the moment the
// 30 were first available (before that, 20 of 30 is a scale-up still under
// way, not a dip), so it is 30.
// surgeWithoutTimeline loads the max-surge scenario with an empty timeline:
// the user's actions are the only ones.
func surgeWithoutTimeline(t *testing.T) *session.Session {
	t.Helper()
	src := strings.Replace(string(surgeSource(t)), "  timeline:", "  timeline: []\n  x-unused:", 1)
	src = src[:strings.Index(src, "  x-unused:")] + src[strings.Index(src, "---"):]
	s, err := session.Load("web.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestForkInstead(t *testing.T) {
	s := surgeWithoutTimeline(t)
	s.RunToTime(3 * time.Second)
	n := s.Step()
	setImage := scenario.Action{Type: scenario.ActionSetImage, Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}, Image: "nginx:1.26"}
	if _, err := s.Apply(setImage); err != nil {
		t.Fatal(err)
	}
	s.Advance(session.ByEvent, 5)
	scale := scenario.Action{Type: scenario.ActionScale, Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}, Replicas: 30}
	r, a, b, err := Fork(s, n, "", []scenario.Action{scale}, Keep{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Step() != n+5 {
		t.Errorf("the forked session moved to step %d", s.Step())
	}
	if r.A.ForkStep != n || r.A.ForkAt != 3*time.Second || r.A.TimeToComplete != 12*time.Second {
		t.Errorf("A: fork step %d at %v, %v to complete; want %d at 3s, 12s", r.A.ForkStep, r.A.ForkAt, r.A.TimeToComplete, n)
	}
	check(t, "A", r.A, want{15 * time.Second, 21, 1, 21, 15, 20, 20})
	check(t, "B", r.B, want{6 * time.Second, 30, 0, 30, 30, 10, 0})
	// The first records that differ are the two actions' API requests.
	if d := r.Divergence; d == nil || d.Step != n+1 || d.RecordA != "apiserver api: kubectl update deployments default/web -> 200 rv=114" ||
		d.RecordB != "apiserver api: kubectl patch deployments/scale default/web -> 200 rv=114" ||
		!strings.HasPrefix(d.Words, fmt.Sprintf("The runs part before step %d (+3.000s), in the actions run there: A did \"apiserver api: kubectl update", n+1)) {
		t.Errorf("divergence %+v", d)
	}
	if len(a.Samples()) != a.Step()+1 || b.Samples()[n].At != 3*time.Second {
		t.Errorf("samples: %d for %d steps", len(a.Samples()), a.Step())
	}
}

// An SRE sets a new image at step n and asks what the same rollout would do
// with maxSurge 100%. With Keep.At, B sets the image too and then patches
// maxSurge (both before step n+1), so it rolls out in one wave; without it,
// the patch replaces the image change and B never rolls out. Either way the
// result names the action made at n.
func TestForkKeepingTheActionsAtTheStep(t *testing.T) {
	s := surgeWithoutTimeline(t)
	s.RunToTime(3 * time.Second)
	n := s.Step()
	web := scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}
	if _, err := s.Apply(scenario.Action{Type: scenario.ActionSetImage, Target: web, Image: "nginx:1.26"}); err != nil {
		t.Fatal(err)
	}
	surge, err := s.ParseUserAction([]byte(`{"type":"setRollingUpdate","target":"deployment/web","maxSurge":"100%"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, keepAt := range []bool{true, false} {
		r, _, b, err := Fork(s, n, "", []scenario.Action{surge}, Keep{At: keepAt, Later: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.ActionsAt) != 1 || r.ActionsAt[0] != "set image deployment/web (first container)=nginx:1.26" || r.KeptAt != keepAt {
			t.Errorf("keep at %v: actions at the step %q, kept %v", keepAt, r.ActionsAt, r.KeptAt)
		}
		check(t, "A", r.A, want{15 * time.Second, 21, 1, 21, 15, 20, 20})
		d, err := b.Sim().Server().GetDeployment("default", "web")
		if err != nil {
			t.Fatal(err)
		}
		image, surgeNow := d.Spec.Template.Spec.Containers[0].Image, d.Spec.Strategy.RollingUpdate.MaxSurge.String()
		if !keepAt {
			if image != "nginx:1.25" || surgeNow != "100%" || r.B.PodsCreated != 0 {
				t.Errorf("instead: B ends with %s, maxSurge %s, %d pods created; want nginx:1.25, 100%%, 0", image, surgeNow, r.B.PodsCreated)
			}
			continue
		}
		if image != "nginx:1.26" || surgeNow != "100%" {
			t.Errorf("as well: B ends with %s, maxSurge %s", image, surgeNow)
		}
		// TestMaxSurge's maxSurge 100% rollout: one wave from +3s.
		check(t, "B", r.B, want{6 * time.Second, 40, 20, 40, 15, 20, 20})
		if dv := r.Divergence; dv == nil || !strings.Contains(dv.Words, "B did") {
			t.Errorf("divergence %+v", dv)
		}
	}
}

// What if the rollout had used maxSurge 100% from step n, keeping the image
// the user set later? With Keep.Later, B sets the image at the moment A did,
// although B's rollout is over and idle by then (B's steps are numbered
// differently from A's); without it, B never sets it. The user's own action
// at the fork step is replaced by the alternative either way.
func TestForkKeepingLater(t *testing.T) {
	s := surgeWithoutTimeline(t)
	s.RunToTime(3 * time.Second)
	n := s.Step()
	web := scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}
	// An action at the fork step itself, which the alternative replaces.
	if _, err := s.Apply(scenario.Action{Type: scenario.ActionScale, Target: web, Replicas: 7}); err != nil {
		t.Fatal(err)
	}
	s.RunToTime(14 * time.Second)
	setImage := scenario.Action{Type: scenario.ActionSetImage, Target: web, Image: "nginx:1.26"}
	if _, err := s.Apply(setImage); err != nil {
		t.Fatal(err)
	}
	s.Advance(session.ByEvent, 5)
	surge, err := s.ParseUserAction([]byte(`{"type":"setRollingUpdate","target":"deployment/web","maxSurge":"100%"}`))
	if err != nil {
		t.Fatal(err)
	}
	deploy := func(x *session.Session) (string, int32) {
		d, err := x.Sim().Server().GetDeployment("default", "web")
		if err != nil {
			t.Fatal(err)
		}
		return d.Spec.Template.Spec.Containers[0].Image, *d.Spec.Replicas
	}
	for _, keep := range []bool{true, false} {
		r, a, b, err := Fork(s, n, "", []scenario.Action{surge}, Keep{Later: keep})
		if err != nil {
			t.Fatal(err)
		}
		if r.LaterActions != 1 || r.KeptLater != keep {
			t.Errorf("keep %v: later actions %d, kept %v", keep, r.LaterActions, r.KeptLater)
		}
		wantImage := "nginx:1.25"
		if keep {
			wantImage = "nginx:1.26"
		}
		if image, replicas := deploy(b); image != wantImage || replicas != 20 {
			t.Errorf("keep %v: B ends with %s at %d replicas, want %s at 20 (the scale at the fork step replaced)", keep, image, replicas, wantImage)
		}
		if image, replicas := deploy(a); image != "nginx:1.26" || replicas != 7 {
			t.Errorf("keep %v: A ends with %s at %d replicas", keep, image, replicas)
		}
		if f := r.B.Final[0]; keep && (!f.Complete || f.Updated != 20 || f.Available != 20) {
			t.Errorf("B's end %+v: the image set at 14s must have rolled out", f)
		}
	}
}

func TestParseOverride(t *testing.T) {
	for _, tc := range []struct {
		in, target, path string
		value            any
	}{
		{"spec.strategy.rollingUpdate.maxSurge=100%", "", "spec.strategy.rollingUpdate.maxSurge", "100%"},
		{"deployment/web:spec.replicas=12", "web", "spec.replicas", int64(12)},
		{"spec.paused=true", "", "spec.paused", true},
		{`spec.template.spec.containers[1].image="7"`, "", "spec.template.spec.containers.[1].image", "7"},
	} {
		o, err := ParseOverride(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if o.Target != tc.target || strings.Join(o.Path, ".") != tc.path || o.Value != tc.value {
			t.Errorf("%s: %+v", tc.in, o)
		}
	}
	for _, in := range []string{"spec.replicas", "deployment/web", "=3", "a..b=1", "spec.x[z]=1"} {
		if _, err := ParseOverride(in); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

func TestOverrideErrors(t *testing.T) {
	src := surgeSource(t)
	for _, tc := range []struct{ set, want string }{
		{"deployment/api:spec.replicas=3", "no deployment/api in the file"},
		{"spec.template.spec.containers[3].image=x", "no element [3]"},
		{"spec.strategy.rollingUpdate.maxSurge=lots", "maxSurge"},
		{"spec.replicas=many", "replicas"},
	} {
		o, err := ParseOverride(tc.set)
		if err != nil {
			t.Fatal(err)
		}
		_, err = WithOverrides("surge-1.yaml", src, []Override{o}, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.set, err, tc.want)
		}
	}
}

// An override is held to the same limits as the file: --set cannot raise
// replicas past the pod limit (the run would otherwise go unchecked).
func TestOverrideKeepsTheLimits(t *testing.T) {
	o, err := ParseOverride("spec.replicas=100000")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Overridden("web.yaml", surgeSource(t), []Override{o}, nil)
	if err == nil || !strings.Contains(err.Error(), "spec.limits.maxPods") {
		t.Fatalf("100,000 replicas through --set: got %v, want the pod limit refusal", err)
	}
}

// TestForkKeepsFewCheckpoints: the two runs a fork plays only go forward and
// are dropped after the comparison, so they keep the fewest rewind
// checkpoints; the session they were forked from keeps its own.
func TestForkKeepsFewCheckpoints(t *testing.T) {
	src := surgeSource(t)
	s, err := session.Load("web.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.RunToEnd()
	before := s.CheckpointStats().Count
	// A run this long keeps several checkpoints when nothing limits them:
	// otherwise the counts below would prove nothing.
	if before < 4 {
		t.Fatalf("the run keeps %d checkpoints; the test needs a longer one", before)
	}
	scale := scenario.Action{Type: scenario.ActionScale, Target: scenario.Ref{Kind: scenario.KindDeployment, Name: "web"}, Replicas: 90}
	_, a, b, err := Fork(s, 1, "", []scenario.Action{scale}, Keep{})
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []struct {
		name string
		s    *session.Session
	}{{"A", a}, {"B", b}} {
		if n := side.s.CheckpointStats().Count; n > 3 {
			t.Errorf("fork %s keeps %d checkpoints, want at most 3 (two and a scratch one)", side.name, n)
		}
	}
	if got := s.CheckpointStats().Count; got != before {
		t.Errorf("the forked session keeps %d checkpoints, had %d", got, before)
	}
}

// TestMeterKeepsItsCountsRight runs every library scenario against itself
// with the meter recounting all pods after every step (checkMeter): the
// counts it keeps from the pods each step wrote, and from the times their
// minReadySeconds run out, must equal a count of every pod (a mismatch
// panics, naming the step).
func TestMeterKeepsItsCountsRight(t *testing.T) {
	checkMeter = true
	defer func() { checkMeter = false }()
	for _, id := range scenarios.IDs() {
		src, _ := scenarios.Source(id)
		if _, err := Files(id+".yaml", src, id+".yaml", src, nil); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}
