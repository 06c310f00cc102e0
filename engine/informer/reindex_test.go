package informer

import (
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// An update moves the object to the end of every index set it is in after
// the update, those it was already in included, exactly as removing it
// from its old sets and adding it to its new ones: ByIndex order equals a
// model kept that way, through updates that keep, change, add and drop
// index values.
func TestUpdateMovesToEndOfIndexSets(t *testing.T) {
	byTeam := func(o apiserver.Object) []string {
		var out []string
		for _, k := range []string{"team", "also"} {
			if v, ok := o.GetLabels()[k]; ok {
				out = append(out, v)
			}
		}
		return out
	}
	s := newStore(map[string]IndexFunc{"team": byTeam}, nil)
	model := map[string][]string{} // value -> keys in order
	drop := func(key string) {
		for v, keys := range model {
			if i := slices.Index(keys, key); i >= 0 {
				model[v] = slices.Delete(keys, i, i+1)
			}
		}
	}
	teams := []string{"a", "b", "c"}
	for step := 0; step < 600; step++ {
		name := fmt.Sprintf("p%d", (step*5)%17)
		key := "default/" + name
		drop(key)
		if step%9 == 8 {
			s.remove(key)
		} else {
			lbls := map[string]string{"team": teams[(step/60)%3]}
			if (step/100)%2 == 0 && len(name)%2 == 0 {
				lbls["also"] = teams[(step/150)%3]
			}
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: lbls, ResourceVersion: fmt.Sprint(step)}}
			s.put(p)
			for _, v := range byTeam(p) {
				if !slices.Contains(model[v], key) {
					model[v] = append(model[v], key)
				}
			}
		}
		for _, v := range teams {
			if got := listKeys(s.ByIndex("team", v)); fmt.Sprint(got) != fmt.Sprint(model[v]) && (len(got) > 0 || len(model[v]) > 0) {
				t.Fatalf("step %d: ByIndex(team, %s) = %v, model %v", step, v, got, model[v])
			}
		}
	}
}

// The controller indexes are not recomputed on an update that keeps the
// controller reference, yet follow one that changes, adds or drops it: the
// index always equals a fresh computation.
func TestControllerIndexFollowsControllerChanges(t *testing.T) {
	s := newStore(map[string]IndexFunc{PodControllerIndex: PodControllerIndexFunc, ControllerUIDIndex: ControllerUIDIndexFunc}, nil)
	if !slices.Equal(s.refOnly, []bool{true, true}) {
		t.Fatalf("refOnly = %v, want both controller indexes recognised", s.refOnly)
	}
	if refOnlyIndex(func(o apiserver.Object) []string { return nil }) {
		t.Fatal("another index function taken for a controller index")
	}
	ctrl := func(name, uid string) []metav1.OwnerReference {
		yes := true
		return []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name, UID: types.UID(uid), Controller: &yes}}
	}
	owners := [][]metav1.OwnerReference{nil, ctrl("a", "1"), ctrl("a", "1"), ctrl("a", "2"), ctrl("b", "2"), nil, ctrl("b", "2")}
	for step, refs := range owners {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "p", OwnerReferences: refs, ResourceVersion: fmt.Sprint(step)}}
		s.put(p)
		for i, name := range s.indexNames {
			want := s.indexers[name](p)
			if got := s.objects.At("default/p").indexed[i]; !slices.Equal(got, want) {
				t.Fatalf("step %d: index %s holds %v, want %v", step, name, got, want)
			}
			for _, v := range want {
				if s.CountByIndex(name, v) != 1 {
					t.Fatalf("step %d: index %s value %s does not hold the pod", step, name, v)
				}
			}
		}
		if n := len(s.indices[PodControllerIndex]); n != 1 {
			t.Fatalf("step %d: %d pod-controller values, want 1", step, n)
		}
	}
}
