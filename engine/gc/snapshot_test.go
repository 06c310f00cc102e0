package gc

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// A checkpoint shares a saved node with the one before only when equals
// holds, so equals must see a change in any field of node: each field is
// changed in turn and must make the saved node differ.
func TestSavedNodeEqualsComparesEveryField(t *testing.T) {
	base := func() *node {
		return &node{ref: apiserver.ObjectRef{Name: "a"}, owners: []metav1.OwnerReference{{Name: "o"}},
			finalizers: []string{"f"}, dependents: map[types.UID]*node{"d": {}}}
	}
	n := base()
	saved := &savedNode{node: *n, deps: []types.UID{"d"}}
	saved.dependents = nil
	if !saved.equals(n) {
		t.Fatal("a node saved as it is does not equal it")
	}
	typ := reflect.TypeOf(node{})
	for i := 0; i < typ.NumField(); i++ {
		m := base()
		m.owners, m.finalizers = n.owners, n.finalizers
		f := reflect.ValueOf(m).Elem().Field(i)
		f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem()
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Struct:
			m.ref.Name = "b"
		case reflect.Slice:
			f.Set(reflect.AppendSlice(reflect.MakeSlice(f.Type(), 0, f.Len()+1), f))
		case reflect.Map:
			m.dependents = map[types.UID]*node{"e": {}}
		default:
			t.Fatalf("field %s of kind %s: teach this test to change it", typ.Field(i).Name, f.Kind())
		}
		if saved.equals(m) {
			t.Errorf("a change of node.%s is not seen by savedNode.equals", typ.Field(i).Name)
		}
	}
}
