package scenario

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var rewriteJSON = flag.Bool("rewrite-json", false, "rewrite testdata/full.json")

// TestFullScenario parses testdata/full.yaml (every action, trigger and
// cluster field) and compares the result with testdata/full.json.
func TestFullScenario(t *testing.T) {
	data, err := os.ReadFile("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("full.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if *rewriteJSON {
		if err := os.WriteFile("testdata/full.json", append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/full.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(got)+"\n" != string(want) {
		t.Fatalf("parsed scenario differs from testdata/full.json:\n%s", got)
	}
	// Spot checks that do not depend on the golden file.
	if s.Seed != 42 || s.Cluster.Images["nginx:1.26"].CrashLoop != true || s.Cluster.Images["nginx:1.26"].StartDelay != 2*time.Second {
		t.Errorf("cluster: %+v", s.Cluster)
	}
	d, ok := s.Objects[0].Obj.(*appsv1.Deployment)
	if !ok || *d.Spec.Replicas != 10 || d.Spec.Strategy.RollingUpdate.MaxSurge.IntValue() != 3 || d.Namespace != "default" {
		t.Errorf("deployment: %+v", s.Objects[0].Obj)
	}
	if len(s.Timeline) != 15 {
		t.Fatalf("%d actions", len(s.Timeline))
	}
	seen := map[ActionType]bool{}
	for _, a := range s.Timeline {
		seen[a.Type] = true
	}
	for a := ActionApply; a <= ActionWriteStatus; a++ {
		if !seen[a] {
			t.Errorf("full.yaml lacks action %s", a)
		}
	}
	kc := s.Cluster.KubeletConfig()
	if len(kc.Nodes) != 3 || kc.Profile("nginx:1.26").CrashLoop != true || kc.Profile("other").CrashLoop {
		t.Errorf("kubelet config: %+v", kc)
	}
}

// TestObjectRoundTrip re-encodes every parsed object as JSON (which is
// YAML), parses that again, and expects the same objects.
func TestObjectRoundTrip(t *testing.T) {
	data, _ := os.ReadFile("testdata/full.yaml")
	s, err := Parse("full.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	objs := append([]Object(nil), s.Objects...)
	for _, a := range s.Timeline {
		objs = append(objs, a.Manifest...)
	}
	var docs []string
	for _, o := range objs {
		b, err := json.Marshal(o.Obj)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
	}
	s2, err := Parse("again.yaml", []byte(strings.Join(docs, "\n---\n")))
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, strings.Join(docs, "\n---\n"))
	}
	if len(s2.Objects) != len(objs) {
		t.Fatalf("%d objects, want %d", len(s2.Objects), len(objs))
	}
	for i := range objs {
		if !reflect.DeepEqual(objs[i].Obj, s2.Objects[i].Obj) {
			t.Errorf("object %d changed:\n%#v\n%#v", i, objs[i].Obj, s2.Objects[i].Obj)
		}
	}
}

// A file of only Kubernetes documents is a valid scenario with defaults.
func TestOnlyKubernetesDocuments(t *testing.T) {
	s, err := Parse("web.yaml", []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "web" || len(s.Notices) != 1 || s.Notices[0].Code != NoticeDefaultScenario || s.Limits.MaxPods != DefaultMaxPods || s.Limits.MaxSteps != DefaultMaxSteps ||
		s.Cluster.Workers != (Workers{5, 5}) || len(s.Cluster.Nodes) != 3 || len(s.Timeline) != 0 || len(s.Objects) != 1 {
		t.Fatalf("%+v", s)
	}
	if pol := metav1.DeletePropagationBackground; pol != "Background" {
		t.Fatal(pol)
	}
}

// FuzzParse: Parse never panics, and every error honours the contract.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{"testdata/full.yaml", "testdata/live/three-of-ten.yaml", "testdata/helm/coredns.yaml", "testdata/helm/traefik.yaml"} {
		if data, err := os.ReadFile(seed); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Odd-length inputs also exercise spec-only mode.
		s, err := ParseWith("fuzz.yaml", data, Options{SpecOnly: len(data)%2 == 1})
		if err != nil {
			if s != nil {
				t.Fatal("scenario returned with an error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %T does not match ErrInvalid", err)
			}
			checkErrorShape(t, err)
			return
		}
		if s == nil {
			t.Fatal("nil scenario without error")
		}
	})
}
