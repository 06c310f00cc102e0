package apiserver

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// TestPodCreateMetaMemoAnswersAsValidation checks that the create-metadata
// memo gives apimachinery's answer for metadata that repeats an accepted
// create's, also when the name or another field makes it invalid.
func TestPodCreateMetaMemoAnswersAsValidation(t *testing.T) {
	yes := true
	base := func(name string) *metav1.ObjectMeta {
		return &metav1.ObjectMeta{
			Name: name, GenerateName: "web-5d8f7c9b6-", Namespace: "default", Generation: 1,
			Labels: map[string]string{"app": "web", "pod-template-hash": "5d8f7c9b6"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d8f7c9b6",
				UID: types.UID("0f9c1d6e-3f0e-4b5e-9d51-1c2a3b4c5d6e"), Controller: &yes, BlockOwnerDeletion: &yes}},
		}
	}
	cases := map[string]func(m *metav1.ObjectMeta){
		"same but the name": func(m *metav1.ObjectMeta) {},
		"invalid name":      func(m *metav1.ObjectMeta) { m.Name = "Web_1" },
		"no name":           func(m *metav1.ObjectMeta) { m.Name = "" },
		"invalid label":     func(m *metav1.ObjectMeta) { m.Labels = map[string]string{"app": "-bad-"} },
		"owner without uid": func(m *metav1.ObjectMeta) {
			m.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "x"}}
		},
		"negative generation": func(m *metav1.ObjectMeta) { m.Generation = -1 },
		"other namespace":     func(m *metav1.ObjectMeta) { m.Namespace = "Bad" },
		"both finalizers": func(m *metav1.ObjectMeta) {
			m.Finalizers = []string{metav1.FinalizerOrphanDependents, metav1.FinalizerDeleteDependents}
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			if errs := validatePodCreateMeta(base("web-5d8f7c9b6-aaaaa")); len(errs) != 0 {
				t.Fatalf("valid metadata refused: %v", errs)
			}
			m := base("web-5d8f7c9b6-bbbbb")
			change(m)
			want := validateMeta(m, true, dnsSubdomainName, metaPath)
			if got := validatePodCreateMeta(m); !reflect.DeepEqual(got, want) {
				t.Fatalf("memo answered %v, validation %v", got, want)
			}
		})
	}
}
