package refmanager

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

const actor = "replicaset-controller"

// fixture is a real API server with one ReplicaSet "rs" (selector
// env=prod) in namespace "default".
type fixture struct {
	t     *testing.T
	clock *clock.Clock
	rec   *trace.Recorder
	srv   *apiserver.Server
	rs    *appsv1.ReplicaSet
	sel   labels.Selector
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	srv := apiserver.New(c, rng.New(1).Stream("apiserver"), rec)
	f := &fixture{t: t, clock: c, rec: rec, srv: srv, sel: labels.SelectorFromSet(labels.Set{"env": "prod"})}
	f.rs = f.createRS("rs")
	return f
}

func (f *fixture) createRS(name string) *appsv1.ReplicaSet {
	f.t.Helper()
	two := int32(2)
	rs, err := f.srv.CreateReplicaSet("kubectl", &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &two,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"env": "prod"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1"}}},
			},
		},
	})
	if err != nil {
		f.t.Fatalf("create rs: %v", err)
	}
	return rs
}

// pod creates a pod in ns with labels and an optional controller.
func (f *fixture) pod(ns, name string, lbls map[string]string, controller metav1.Object) *corev1.Pod {
	f.t.Helper()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1"}}},
	}
	if controller != nil {
		p.OwnerReferences = []metav1.OwnerReference{*podutil.NewControllerRef(controller, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))}
	}
	out, err := f.srv.CreatePod("kubectl", p)
	if err != nil {
		f.t.Fatalf("create pod: %v", err)
	}
	return out
}

func (f *fixture) env() Env { return Env{Client: f.srv, Rec: f.rec, Actor: actor} }

// decisions returns the text of every refmanager record emitted so far.
func (f *fixture) decisions() []string {
	var out []string
	for _, r := range f.rec.Records() {
		switch r.Data.(type) {
		case ClaimDecision, CanAdoptCheck:
			out = append(out, r.Data.Text())
		}
	}
	return out
}

// patches counts the patch requests the server recorded.
func (f *fixture) patches() int {
	n := 0
	for _, r := range f.rec.Records() {
		if req, ok := r.Data.(apiserver.Request); ok && req.Verb == "patch" {
			n++
		}
	}
	return n
}

func (f *fixture) livePod(name string) *corev1.Pod {
	f.t.Helper()
	p, err := f.srv.GetPod("default", name)
	if err != nil {
		f.t.Fatalf("get pod %s: %v", name, err)
	}
	return p
}

func deleting(rs *appsv1.ReplicaSet) *appsv1.ReplicaSet {
	c := rs.DeepCopy()
	ts := metav1.NewTime(clock.Epoch)
	c.DeletionTimestamp = &ts
	return c
}

func names(pods []*corev1.Pod) string {
	var s []string
	for _, p := range pods {
		s = append(s, p.Name)
	}
	return strings.Join(s, ",")
}

var prod = map[string]string{"env": "prod"}

// TestClaimTable covers every row of BEHAVIOR §5.1 for pods.
func TestClaimTable(t *testing.T) {
	cases := []struct {
		name string
		// setup returns the owner as the controller sees it and the
		// candidate pods.
		setup       func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod)
		wantClaimed string
		wantPatches int
		// check inspects the live pod afterwards.
		check     func(f *fixture)
		wantText  string
		wantCount func(s Summary) bool
	}{
		{
			name: "controlled by another UID is ignored",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				other := f.createRS("other")
				return f.rs, []*corev1.Pod{f.pod("default", "p", prod, other)}
			},
			wantClaimed: "",
			wantCount:   func(s Summary) bool { return s.OtherOwner == 1 && s.Claimed == 0 },
		},
		{
			name: "controlled by us and matching is claimed",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				return f.rs, []*corev1.Pod{f.pod("default", "p", prod, f.rs)}
			},
			wantClaimed: "p",
			wantCount:   func(s Summary) bool { return s.Kept == 1 && s.Claimed == 1 },
		},
		{
			name: "controlled by us and matching is claimed while the owner is deleted",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				return deleting(f.rs), []*corev1.Pod{f.pod("default", "p", prod, f.rs)}
			},
			wantClaimed: "p",
			wantCount:   func(s Summary) bool { return s.Kept == 1 },
		},
		{
			name: "controlled by us and not matching is released",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				return f.rs, []*corev1.Pod{f.pod("default", "p", map[string]string{"env": "dev"}, f.rs)}
			},
			wantClaimed: "",
			wantPatches: 1,
			check: func(f *fixture) {
				if refs := f.livePod("p").OwnerReferences; len(refs) != 0 {
					f.t.Errorf("released pod still has refs %+v", refs)
				}
			},
			wantText:  "ReplicaSet default/rs release Pod default/p: done (labels env=dev no longer match selector env=prod)",
			wantCount: func(s Summary) bool { return len(s.Released) == 1 && s.Released[0].Name == "p" },
		},
		{
			name: "controlled by us and not matching while the owner is deleted: nothing done",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				return deleting(f.rs), []*corev1.Pod{f.pod("default", "p", map[string]string{"env": "dev"}, f.rs)}
			},
			wantClaimed: "",
			check: func(f *fixture) {
				if !podutil.IsControlledBy(f.livePod("p"), f.rs.UID) {
					f.t.Error("pod was released although the owner is being deleted")
				}
			},
			wantCount: func(s Summary) bool { return s.Skipped == 1 },
		},
		{
			name: "matching orphan is adopted",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				return f.rs, []*corev1.Pod{f.pod("default", "p", prod, nil)}
			},
			wantClaimed: "p",
			wantPatches: 1,
			check: func(f *fixture) {
				ref := metav1.GetControllerOf(f.livePod("p"))
				if ref == nil || ref.UID != f.rs.UID || ref.Kind != "ReplicaSet" || ref.APIVersion != "apps/v1" ||
					ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
					f.t.Errorf("adopted pod controller ref = %+v", ref)
				}
			},
			wantText:  "ReplicaSet default/rs adopt Pod default/p: done (orphan labels env=prod match selector env=prod)",
			wantCount: func(s Summary) bool { return len(s.Adopted) == 1 && s.Adopted[0].RV != "" },
		},
		{
			name: "orphan is ignored while the owner is deleted",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				return deleting(f.rs), []*corev1.Pod{f.pod("default", "p", prod, nil)}
			},
			wantCount: func(s Summary) bool { return s.Skipped == 1 },
		},
		{
			name: "orphan not matching is ignored",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				return f.rs, []*corev1.Pod{f.pod("default", "p", map[string]string{"env": "dev"}, nil)}
			},
			wantCount: func(s Summary) bool { return s.Skipped == 1 },
		},
		{
			name: "terminating orphan is ignored",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				p := f.pod("default", "p", prod, nil).DeepCopy()
				ts := metav1.NewTime(clock.Epoch.Add(30 * time.Second))
				p.DeletionTimestamp = &ts
				return f.rs, []*corev1.Pod{p}
			},
			wantCount: func(s Summary) bool { return s.Skipped == 1 },
		},
		{
			name: "orphan in another namespace is ignored",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				return f.rs, []*corev1.Pod{f.pod("other", "p", prod, nil)}
			},
			wantCount: func(s Summary) bool { return s.Skipped == 1 },
		},
		{
			name: "adoption of a pod deleted meanwhile is not an error",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				p := f.pod("default", "p", prod, nil)
				if err := f.srv.DeletePod("kubectl", "default", "p", apiserver.DeleteOptions{}); err != nil {
					f.t.Fatal(err)
				}
				return f.rs, []*corev1.Pod{p}
			},
			wantPatches: 1,
			wantText:    `ReplicaSet default/rs adopt Pod default/p: gone (orphan labels env=prod match selector env=prod): pods "p" not found`,
			wantCount:   func(s Summary) bool { return s.Skipped == 1 && len(s.Failed) == 0 },
		},
		{
			name: "release of a pod deleted meanwhile is not an error",
			setup: func(f *fixture) (*appsv1.ReplicaSet, []*corev1.Pod) {
				p := f.pod("default", "p", map[string]string{"env": "dev"}, f.rs)
				if err := f.srv.DeletePod("kubectl", "default", "p", apiserver.DeleteOptions{}); err != nil {
					f.t.Fatal(err)
				}
				return f.rs, []*corev1.Pod{p}
			},
			wantPatches: 1,
			wantCount:   func(s Summary) bool { return len(s.Released) == 1 && len(s.Failed) == 0 },
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			owner, pods := tc.setup(f)
			before := f.patches()
			claimed, sum, err := ClaimPods(f.env(), owner, f.sel, pods)
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if got := names(claimed); got != tc.wantClaimed {
				t.Errorf("claimed %q, want %q", got, tc.wantClaimed)
			}
			if got := f.patches() - before; got != tc.wantPatches {
				t.Errorf("%d patches, want %d", got, tc.wantPatches)
			}
			if tc.check != nil {
				tc.check(f)
			}
			if tc.wantText != "" {
				d := f.decisions()
				if len(d) == 0 || d[len(d)-1] != tc.wantText {
					t.Errorf("decisions %q, want last %q", d, tc.wantText)
				}
			}
			if !tc.wantCount(sum) {
				t.Errorf("summary %+v", sum)
			}
			if sum.Candidates != len(pods) || sum.Claimed != len(claimed) {
				t.Errorf("summary counts %+v", sum)
			}
		})
	}
}

// A failed patch is collected and the loop goes on: the pod in the cache
// was re-created on the server (new UID), so the adopt patch's uid
// precondition fails with 422, and the next orphan is still adopted.
func TestClaimCollectsErrorsAndContinues(t *testing.T) {
	f := newFixture(t)
	stale := f.pod("default", "a", prod, nil)
	if err := f.srv.DeletePod("kubectl", "default", "a", apiserver.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.pod("default", "a", prod, nil) // same name, new UID
	b := f.pod("default", "b", prod, nil)
	claimed, sum, err := ClaimPods(f.env(), f.rs, f.sel, []*corev1.Pod{stale, b})
	// The aggregate hides the error's type, as upstream's does; its text is
	// the server's 422.
	if err == nil || !strings.HasPrefix(err.Error(), `Pod "a" is invalid: metadata.uid: Invalid value:`) {
		t.Fatalf("want the 422 of pod a, got %v", err)
	}
	if names(claimed) != "b" {
		t.Errorf("claimed %q, want b", names(claimed))
	}
	if len(sum.Failed) != 1 || sum.Failed[0] != "a" || len(sum.Adopted) != 1 {
		t.Errorf("summary %+v", sum)
	}
	if !podutil.IsControlledBy(f.livePod("b"), f.rs.UID) || podutil.IsControlledBy(f.livePod("a"), f.rs.UID) {
		t.Error("wrong pods adopted")
	}
}

// failingClient answers every patch with an internal error.
type failingClient struct{ Client }

func (failingClient) AdoptObject(_ string, _ apiserver.Resource, _, name string, _ types.UID, _ metav1.OwnerReference) (apiserver.Object, error) {
	return nil, apierrors.NewServiceUnavailable("boom adopting " + name)
}

func (failingClient) ReleaseObject(_ string, _ apiserver.Resource, _, name string, _, _ types.UID) (apiserver.Object, error) {
	return nil, apierrors.NewServiceUnavailable("boom releasing " + name)
}

func TestClaimAggregatesSeveralErrors(t *testing.T) {
	f := newFixture(t)
	pods := []*corev1.Pod{
		f.pod("default", "a", prod, nil),
		f.pod("default", "b", map[string]string{"env": "dev"}, f.rs),
		f.pod("default", "c", prod, f.rs),
	}
	env := f.env()
	env.Client = failingClient{f.srv}
	claimed, sum, err := ClaimPods(env, f.rs, f.sel, pods)
	if err == nil || err.Error() != "[boom adopting a, boom releasing b]" {
		t.Fatalf("aggregated error = %v", err)
	}
	if names(claimed) != "c" || len(sum.Failed) != 2 {
		t.Errorf("claimed %q summary %+v", names(claimed), sum)
	}
}

func TestCanAdoptFailures(t *testing.T) {
	cases := []struct {
		name string
		// owner mutates the server and returns the cached owner.
		owner   func(f *fixture) *appsv1.ReplicaSet
		wantErr func(f *fixture, pod *corev1.Pod) string
	}{
		{
			name: "owner gone",
			owner: func(f *fixture) *appsv1.ReplicaSet {
				if err := f.srv.DeleteReplicaSet("kubectl", "default", "rs", apiserver.DeleteOptions{}); err != nil {
					f.t.Fatal(err)
				}
				return f.rs
			},
			wantErr: func(f *fixture, p *corev1.Pod) string {
				return "can't adopt Pod default/" + p.Name + " (" + string(p.UID) + `): can't recheck DeletionTimestamp: replicasets.apps "rs" not found`
			},
		},
		{
			name: "owner re-created with another UID",
			owner: func(f *fixture) *appsv1.ReplicaSet {
				if err := f.srv.DeleteReplicaSet("kubectl", "default", "rs", apiserver.DeleteOptions{}); err != nil {
					f.t.Fatal(err)
				}
				f.createRS("rs")
				return f.rs
			},
			wantErr: func(f *fixture, p *corev1.Pod) string {
				fresh, _ := f.srv.GetReplicaSet("default", "rs")
				return "can't adopt Pod default/" + p.Name + " (" + string(p.UID) + "): can't recheck DeletionTimestamp: original ReplicaSet default/rs is gone: got uid " +
					string(fresh.UID) + ", wanted " + string(f.rs.UID)
			},
		},
		{
			name: "owner being deleted on the server",
			owner: func(f *fixture) *appsv1.ReplicaSet {
				f.clock.Advance(10 * time.Second)
				fg := metav1.DeletePropagationForeground
				if err := f.srv.DeleteReplicaSet("kubectl", "default", "rs", apiserver.DeleteOptions{PropagationPolicy: &fg}); err != nil {
					f.t.Fatal(err)
				}
				return f.rs // the cache has not seen the deletion yet
			},
			wantErr: func(f *fixture, p *corev1.Pod) string {
				return "can't adopt Pod default/" + p.Name + " (" + string(p.UID) + "): default/rs has just been deleted at 2026-01-01 00:00:10 +0000 UTC"
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			a := f.pod("default", "a", prod, nil)
			b := f.pod("default", "b", prod, nil)
			owner := tc.owner(f)
			before := f.patches()
			claimed, sum, err := ClaimPods(f.env(), owner, f.sel, []*corev1.Pod{a, b})
			want := "[" + tc.wantErr(f, a) + ", " + tc.wantErr(f, b) + "]"
			if err == nil || err.Error() != want {
				t.Fatalf("error\n got %v\nwant %s", err, want)
			}
			if len(claimed) != 0 || len(sum.Failed) != 2 {
				t.Errorf("claimed %q summary %+v", names(claimed), sum)
			}
			if f.patches() != before {
				t.Error("a refused adoption must not send a patch")
			}
			checks := 0
			for _, d := range f.decisions() {
				if strings.HasPrefix(d, "can-adopt ") {
					checks++
				}
			}
			if checks != 1 {
				t.Errorf("CanAdopt ran %d times, want once per manager", checks)
			}
		})
	}
}

// A NotFound from the owner's GET must not look like a NotFound adoption.
func TestCanAdoptNotFoundIsNotSwallowed(t *testing.T) {
	f := newFixture(t)
	p := f.pod("default", "a", prod, nil)
	if err := f.srv.DeleteReplicaSet("kubectl", "default", "rs", apiserver.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, _, err := ClaimPods(f.env(), f.rs, f.sel, []*corev1.Pod{p})
	if err == nil || apierrors.IsNotFound(err) {
		t.Fatalf("want a non-NotFound error, got %v", err)
	}
}

func TestClaimReplicaSetsForDeployment(t *testing.T) {
	f := newFixture(t)
	one := int32(1)
	d, err := f.srv.CreateDeployment("kubectl", &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &one,
			Selector: &metav1.LabelSelector{MatchLabels: prod},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: prod},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1"}}},
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// f.rs has no labels of its own: a Deployment matches RS labels, not the
	// RS selector, so it is skipped. A labelled orphan RS is adopted.
	labelled := f.rs.DeepCopy()
	labelled.Name, labelled.ResourceVersion, labelled.UID = "rs-labelled", "", ""
	labelled.Labels = prod
	created, err := f.srv.CreateReplicaSet("kubectl", labelled)
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Client: f.srv, Rec: f.rec, Actor: "deployment-controller"}
	claimed, sum, err := ClaimReplicaSets(env, d, f.sel, []*appsv1.ReplicaSet{f.rs, created})
	if err != nil {
		t.Fatal(err)
	}
	if len(claimed) != 1 || claimed[0].Name != "rs-labelled" || sum.Skipped != 1 {
		t.Fatalf("claimed %v summary %+v", claimed, sum)
	}
	live, _ := f.srv.GetReplicaSet("default", "rs-labelled")
	ref := metav1.GetControllerOf(live)
	if ref == nil || ref.Kind != "Deployment" || ref.UID != d.UID {
		t.Errorf("controller ref %+v", ref)
	}
	want := "claim Deployment default/web (env=prod): 1 of 2 claimed; kept 0, adopted 1 [rs-labelled], released 0, other owner 0, skipped 1, failed 0"
	if sum.Text() != want {
		t.Errorf("summary text\n got %s\nwant %s", sum.Text(), want)
	}
}
