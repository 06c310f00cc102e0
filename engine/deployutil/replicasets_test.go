package deployutil

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type findIn struct {
	Template string `json:"deploymentTemplate"`
	RSList   []rsIn `json:"rsList"`
}

func (in findIn) objects(t *testing.T) (*appsv1.Deployment, []*appsv1.ReplicaSet) {
	d := newDeployment(t, 1, "RollingUpdate", nil, nil)
	d.Spec.Template = podTemplate(in.Template, "")
	return d, buildRSs(t, in.RSList)
}

func TestOracleFindNewReplicaSet(t *testing.T) {
	runOracle(t, "find_new_replica_set", func(t *testing.T, c oracleCase) {
		var in findIn
		var want struct {
			New *string `json:"new"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d, list := in.objects(t)
		got := FindNewReplicaSet(d, list)
		switch {
		case want.New == nil && got != nil:
			t.Fatalf("got %s, want nil", got.Name)
		case want.New != nil && (got == nil || got.Name != *want.New):
			t.Fatalf("got %v, want %s", got, *want.New)
		}
	})
}

func TestOracleFindOldReplicaSets(t *testing.T) {
	runOracle(t, "find_old_replica_sets", func(t *testing.T, c oracleCase) {
		var in findIn
		var want struct {
			All      []string `json:"all_old"`
			Required []string `json:"required_old"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d, list := in.objects(t)
		required, all := FindOldReplicaSets(d, list)
		if g, w := strings.Join(names(all), ","), strings.Join(want.All, ","); g != w {
			t.Errorf("all %s, want %s", g, w)
		}
		if g, w := strings.Join(names(required), ","), strings.Join(want.Required, ","); g != w {
			t.Errorf("required %s, want %s", g, w)
		}
	})
}

func TestOracleAnnotationIntParsing(t *testing.T) {
	runOracle(t, "annotation_int_parsing", func(t *testing.T, c oracleCase) {
		var in struct {
			Annotation *string `json:"annotation"`
		}
		var want struct {
			Error bool  `json:"error"`
			Valid bool  `json:"valid"`
			Value int32 `json:"value"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		rs := sizedRS("rs", 1)
		if in.Annotation != nil {
			rs.Annotations = map[string]string{MaxReplicasAnnotation: *in.Annotation}
		}
		v, ok, err := AnnotationInt32(rs, MaxReplicasAnnotation)
		if v != want.Value || ok != want.Valid || (err != nil) != want.Error {
			t.Fatalf("got (%d, %v, %v), want (%d, %v, error=%v)", v, ok, err, want.Value, want.Valid, want.Error)
		}
		if err != nil && !errors.Is(err, ErrInvalidAnnotation) {
			t.Fatalf("err %v is not ErrInvalidAnnotation", err)
		}
	})
}

func TestOracleSetNewReplicaSetAnnotations(t *testing.T) {
	runOracle(t, "set_new_replica_set_annotations", func(t *testing.T, c oracleCase) {
		var in struct {
			DAnnotations map[string]string `json:"deployment_annotations"`
			DReplicas    int32             `json:"deployment_replicas"`
			Exists       bool              `json:"exists"`
			MaxSurge     json.RawMessage   `json:"maxSurge"`
			MaxUnavail   json.RawMessage   `json:"maxUnavailable"`
			NewRevision  string            `json:"newRevision"`
			Limit        int               `json:"revHistoryLimitInChars"`
			RSAnn        map[string]string `json:"rs_annotations"`
			Sequence     []string          `json:"sequence_newRevisions"`
		}
		var want struct {
			Changed bool              `json:"changed"`
			RSAnn   map[string]string `json:"rs_annotations"`
			Steps   []struct {
				History  string `json:"history_after"`
				Revision string `json:"revision_after"`
			} `json:"steps"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := newDeployment(t, in.DReplicas, "RollingUpdate", in.MaxSurge, in.MaxUnavail)
		d.Annotations = in.DAnnotations
		rs := sizedRS("rs", 0)
		rs.Annotations = in.RSAnn
		if len(in.Sequence) > 0 {
			for i, rev := range in.Sequence {
				SetNewReplicaSetAnnotations(d, rs, rev, in.Exists, in.Limit)
				w := want.Steps[i]
				if rs.Annotations[RevisionAnnotation] != w.Revision || rs.Annotations[RevisionHistoryAnnotation] != w.History {
					t.Fatalf("step %d (%s): revision %q history %q, want %q %q", i, rev,
						rs.Annotations[RevisionAnnotation], rs.Annotations[RevisionHistoryAnnotation], w.Revision, w.History)
				}
			}
			return
		}
		changed := SetNewReplicaSetAnnotations(d, rs, in.NewRevision, in.Exists, in.Limit)
		got, _ := json.Marshal(rs.Annotations)
		exp, _ := json.Marshal(want.RSAnn)
		if changed != want.Changed || string(got) != string(exp) {
			t.Fatalf("changed %v annotations %s; want %v %s", changed, got, want.Changed, exp)
		}
	})
}

func TestOracleGenerateReplicaSetName(t *testing.T) {
	type rep struct {
		Char  string `json:"char"`
		Count int    `json:"count"`
	}
	str := func(t *testing.T, raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		var r rep
		decode(t, raw, &r)
		return strings.Repeat(r.Char, r.Count)
	}
	runOracle(t, "generate_replica_set_name", func(t *testing.T, c oracleCase) {
		var in struct {
			Name json.RawMessage `json:"deploymentName"`
			Hash json.RawMessage `json:"hash"`
		}
		var want struct {
			Value json.RawMessage `json:"value"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		got := GenerateReplicaSetName(str(t, in.Name), str(t, in.Hash))
		var exact string
		if json.Unmarshal(want.Value, &exact) == nil {
			if got != exact {
				t.Fatalf("got %q, want %q", got, exact)
			}
			return
		}
		var shape struct {
			Prefix json.RawMessage `json:"prefix"`
			Sep    string          `json:"separator"`
			Suffix json.RawMessage `json:"suffix"`
			Total  int             `json:"totalLength"`
		}
		decode(t, want.Value, &shape)
		if w := str(t, shape.Prefix) + shape.Sep + str(t, shape.Suffix); got != w || len(got) != shape.Total {
			t.Fatalf("got %d chars, want %d", len(got), shape.Total)
		}
	})
}

func TestRevisions(t *testing.T) {
	rev := func(name, v string) *appsv1.ReplicaSet {
		rs := sizedRS(name, 0)
		if v != "-" {
			rs.Annotations = map[string]string{RevisionAnnotation: v}
		}
		return rs
	}
	rss := []*appsv1.ReplicaSet{rev("a", "3"), rev("b", "x"), rev("c", "-"), rev("d", "7"), nil, rev("e", "5")}
	if got := MaxRevision(rss); got != 7 {
		t.Errorf("MaxRevision %d", got)
	}
	if got := LastRevision(rss); got != 5 {
		t.Errorf("LastRevision %d", got)
	}
	if got := NewRevision(rss); got != "8" {
		t.Errorf("NewRevision %s", got)
	}
	if _, err := Revision(rss[1]); !errors.Is(err, ErrInvalidRevision) {
		t.Errorf("Revision(x) err %v", err)
	}
	if v, err := Revision(rss[2]); v != 0 || err != nil {
		t.Errorf("missing revision: %d %v", v, err)
	}
}

func TestComputeHashAndEqualIgnoreHash(t *testing.T) {
	a := podTemplate("nginx", "")
	b := podTemplate("nginx", "abc")
	if !EqualIgnoreHash(&a, &b) {
		t.Error("hash label must be ignored")
	}
	if _, ok := b.Labels[DefaultPodTemplateHashLabel]; !ok {
		t.Error("EqualIgnoreHash modified its input")
	}
	// Semantic equality: nil and empty maps are equal.
	c := podTemplate("nginx", "")
	c.Annotations = map[string]string{}
	if !EqualIgnoreHash(&a, &c) {
		t.Error("nil and empty annotations must be equal")
	}
	other := podTemplate("nginx:2", "")
	if EqualIgnoreHash(&a, &other) {
		t.Error("different images must differ")
	}

	h1 := ComputeHash(&a, nil)
	if h1 != ComputeHash(&a, nil) {
		t.Error("hash not stable")
	}
	if h1 == ComputeHash(&a, int32p(1)) || ComputeHash(&a, int32p(1)) == ComputeHash(&a, int32p(2)) {
		t.Error("collisionCount must change the hash")
	}
	if h1 == ComputeHash(&other, nil) {
		t.Error("template must change the hash")
	}
	if len(h1) < 8 || len(h1) > 10 || strings.Trim(h1, hashAlphabet) != "" {
		t.Errorf("hash %q not 8-10 chars of the alphabet", h1)
	}
	if got := GenerateReplicaSetName("web", "5d4f8b"); got != "web-5d4f8b" {
		t.Errorf("name %q", got)
	}
}

func TestReplicasAnnotations(t *testing.T) {
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs"}}
	if !ReplicasAnnotationsNeedUpdate(rs, 3, 4) {
		t.Error("missing annotations need an update")
	}
	if !SetReplicasAnnotations(rs, 3, 4) || SetReplicasAnnotations(rs, 3, 4) {
		t.Error("SetReplicasAnnotations change reporting")
	}
	if ReplicasAnnotationsNeedUpdate(rs, 3, 4) || !ReplicasAnnotationsNeedUpdate(rs, 3, 5) {
		t.Error("ReplicasAnnotationsNeedUpdate")
	}
}

// EqualIgnoreHash answers as the reference definition (deep copies with the
// hash label deleted, compared semantically) over label sets that differ
// by the hash, by other pairs, by nil against empty, and by one side only.
func TestEqualIgnoreHashMatchesDeepCopyDefinition(t *testing.T) {
	reference := func(a, b *corev1.PodTemplateSpec) bool {
		ac, bc := a.DeepCopy(), b.DeepCopy()
		delete(ac.Labels, DefaultPodTemplateHashLabel)
		delete(bc.Labels, DefaultPodTemplateHashLabel)
		return apiequality.Semantic.DeepEqual(ac, bc)
	}
	h := DefaultPodTemplateHashLabel
	labelSets := []map[string]string{
		nil, {}, {h: "x"}, {h: "y"}, {"app": "web"}, {"app": "web", h: "x"}, {"app": "web", h: "y"},
		{"app": "db"}, {"app": "web", "tier": "1"}, {"app": "web", "tier": "1", h: "x"}, {"tier": "1", h: "x"},
	}
	for _, image := range []string{"nginx", "nginx:2"} {
		for i, la := range labelSets {
			for j, lb := range labelSets {
				a, b := podTemplate("nginx", ""), podTemplate(image, "")
				a.Labels, b.Labels = la, lb
				if got, want := EqualIgnoreHash(&a, &b), reference(&a, &b); got != want {
					t.Errorf("labels %v vs %v, image %s: got %v, want %v", labelSets[i], labelSets[j], image, got, want)
				}
			}
		}
	}
}
