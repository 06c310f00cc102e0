package apiserver

import (
	"maps"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// A ReplicaSet creates its pods with the same metadata but for the
// generated name: the same namespace, generateName, labels, annotations
// and owner references. apimachinery's object-metadata validation is a
// pure function of those fields plus the name, so once one pod's metadata
// passed it with no error, a pod whose metadata equals that one's except
// for a name that passes the name check gets no error either and skips
// the rest (which builds a field path per check before knowing whether
// there is an error, and rechecks every owner reference).

// createMetaMemo is the metadata of the last pod create that passed
// validation with no error, minus its name. Like metaMemo it is shared by
// every server (validity is a pure function of the metadata), and mu
// guards it because tests may run servers in parallel. It holds the
// stored pod's labels, annotations and owner references, which stored
// objects never change in place.
var createMetaMemo struct {
	mu sync.Mutex
	// ok is false until a create's metadata passed.
	ok   bool
	meta metav1.ObjectMeta
}

// validatePodCreateMeta is validateMeta for a pod create (namespaced,
// names checked as DNS subdomains), answered without apimachinery when the
// metadata repeats the last accepted create's but for its name.
func validatePodCreateMeta(m *metav1.ObjectMeta) field.ErrorList {
	if m.Name != "" && sameCreateMetaAsLast(m) && len(dnsSubdomainName(m.Name, false)) == 0 {
		return nil
	}
	errs := validateMeta(m, true, dnsSubdomainName, metaPath)
	if len(errs) == 0 {
		createMetaMemo.mu.Lock()
		createMetaMemo.ok = true
		createMetaMemo.meta = metav1.ObjectMeta{
			Namespace: m.Namespace, GenerateName: m.GenerateName, Generation: m.Generation,
			Labels: m.Labels, Annotations: m.Annotations, OwnerReferences: m.OwnerReferences, Finalizers: m.Finalizers,
		}
		createMetaMemo.mu.Unlock()
	}
	return errs
}

// sameCreateMetaAsLast reports whether m equals the remembered metadata
// in every field object-metadata validation reads except the name:
// namespace, generateName, generation, labels, annotations, owner
// references and finalizers, with no managed fields on either. Owner
// references compare with SameOwnerRef, reflect.DeepEqual's answer for
// them (sameSlice has settled the empty and nil cases): reflection was
// 1% of a js/wasm rewind replay (node CPU profile of BenchmarkSeek at
// 100k steps), the browser's wasm being built without inlining.
func sameCreateMetaAsLast(m *metav1.ObjectMeta) bool {
	createMetaMemo.mu.Lock()
	defer createMetaMemo.mu.Unlock()
	last := &createMetaMemo.meta
	return createMetaMemo.ok && len(m.ManagedFields) == 0 &&
		m.Namespace == last.Namespace && m.GenerateName == last.GenerateName && m.Generation == last.Generation &&
		(sameStringMap(m.Labels, last.Labels) || maps.Equal(m.Labels, last.Labels)) &&
		(sameStringMap(m.Annotations, last.Annotations) || maps.Equal(m.Annotations, last.Annotations)) &&
		(sameSlice(m.OwnerReferences, last.OwnerReferences) || slices.EqualFunc(m.OwnerReferences, last.OwnerReferences, podutil.SameOwnerRef)) &&
		slices.Equal(m.Finalizers, last.Finalizers)
}
