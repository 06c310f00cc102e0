package apiserver

import (
	"sync"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Label and annotation checks (regular expressions per key and value) are
// most of the cost of metadata validation, and almost every write repeats
// the labels of the object it replaces. metaMemo remembers the label keys,
// label values and annotation keys that were part of metadata apimachinery
// accepted without any error; metadata whose labels (or annotations) are all
// remembered is validated with them left out, which yields the same error
// list because they would have added none.

// maxMemoEntries bounds each set of metaMemo; once full, new strings are
// checked every time.
const maxMemoEntries = 4096

// metaMemo is shared by every server: the validity of a string is a pure
// function of it. mu guards the sets because tests may run servers in
// parallel; the engine itself is single-threaded.
var metaMemo struct {
	mu sync.Mutex
	// labelKeys, labelValues and annotationKeys hold only strings that
	// appeared in metadata accepted with no error; each holds at most
	// maxMemoEntries strings.
	labelKeys, labelValues, annotationKeys map[string]struct{}
}

// validateMeta is apivalidation.ValidateObjectMeta with remembered labels
// and annotations skipped.
func validateMeta(m *metav1.ObjectMeta, requiresNamespace bool, nameFn apivalidation.ValidateNameFunc, path *field.Path) field.ErrorList {
	checked := withoutKnownValid(m)
	errs := apivalidation.ValidateObjectMeta(checked, requiresNamespace, nameFn, path)
	if len(errs) == 0 {
		rememberValid(checked)
	}
	return errs
}

// validateMetaUpdate is apivalidation.ValidateObjectMetaUpdate with
// remembered labels and annotations of the new metadata skipped. Metadata
// that passedAsStored has no error and is not walked.
func validateMetaUpdate(m, old *metav1.ObjectMeta, path *field.Path) field.ErrorList {
	if passedAsStored(m, old) {
		return nil
	}
	checked := withoutKnownValid(m)
	errs := apivalidation.ValidateObjectMetaUpdate(checked, old, path)
	if len(errs) == 0 {
		rememberValid(checked)
	}
	return errs
}

// passedAsStored reports whether metadata m of a write over the stored old
// is semantically equal to old's except for a generation that did not go
// down (most status writes, and binds, which bump it). Such metadata gets
// no error from update or object-metadata validation: every check either
// compares it with old (equal, generation not decremented) or validates a
// field of it that the same check passed when old was stored (creations
// and updates both validate labels, annotations, owner references,
// finalizers, managed fields and a non-negative generation; old carries a
// resourceVersion). m is the server's own copy; its generation is swapped
// for the comparison and put back.
func passedAsStored(m, old *metav1.ObjectMeta) bool {
	if old.ResourceVersion == "" || m.Generation < old.Generation {
		return false
	}
	gen := m.Generation
	m.Generation = old.Generation
	equal := metaEqual(m, old)
	m.Generation = gen
	return equal
}

// withoutKnownValid returns m, or a shallow copy of m without its labels
// and/or annotations when each of them is remembered as valid (and the
// annotations are within the size limit).
func withoutKnownValid(m *metav1.ObjectMeta) *metav1.ObjectMeta {
	if len(m.Labels) == 0 && len(m.Annotations) == 0 {
		return m
	}
	metaMemo.mu.Lock()
	skipLabels := len(m.Labels) > 0
	for k, v := range m.Labels {
		if !memoHas(metaMemo.labelKeys, k) || !memoHas(metaMemo.labelValues, v) {
			skipLabels = false
			break
		}
	}
	skipAnnotations := len(m.Annotations) > 0
	for k := range m.Annotations {
		if !memoHas(metaMemo.annotationKeys, k) {
			skipAnnotations = false
			break
		}
	}
	metaMemo.mu.Unlock()
	if skipAnnotations && apivalidation.ValidateAnnotationsSize(m.Annotations) != nil {
		skipAnnotations = false
	}
	if !skipLabels && !skipAnnotations {
		return m
	}
	c := *m
	if skipLabels {
		c.Labels = nil
	}
	if skipAnnotations {
		c.Annotations = nil
	}
	return &c
}

// rememberValid records the labels and annotation keys of m, which passed
// validation with no error. Callers pass the metadata they validated, so
// parts already skipped as remembered are not recorded again.
func rememberValid(m *metav1.ObjectMeta) {
	if len(m.Labels) == 0 && len(m.Annotations) == 0 {
		return
	}
	metaMemo.mu.Lock()
	defer metaMemo.mu.Unlock()
	for k, v := range m.Labels {
		metaMemo.labelKeys = memoAdd(metaMemo.labelKeys, k)
		metaMemo.labelValues = memoAdd(metaMemo.labelValues, v)
	}
	for k := range m.Annotations {
		metaMemo.annotationKeys = memoAdd(metaMemo.annotationKeys, k)
	}
}

func memoHas(set map[string]struct{}, s string) bool {
	_, ok := set[s]
	return ok
}

func memoAdd(set map[string]struct{}, s string) map[string]struct{} {
	if set == nil {
		set = map[string]struct{}{}
	}
	if len(set) < maxMemoEntries {
		set[s] = struct{}{}
	}
	return set
}

// maxNameMemo is the size of one generation of the name memo.
const maxNameMemo = 8192

// nameMemo remembers the generateName prefixes that
// apivalidation.NameIsDNSSubdomain accepted (names go to isDNSSubdomain).
// So that it never fills up it keeps two generations: when current reaches
// maxNameMemo prefixes it becomes previous and a new current starts.
var nameMemo struct {
	mu sync.Mutex
	// current and previous hold accepted prefixes, at most maxNameMemo each.
	current, previous map[string]struct{}
}

// dnsSubdomainName is apivalidation.NameIsDNSSubdomain with valid names
// accepted by isDNSSubdomain and accepted generateName prefixes remembered;
// it returns the same messages.
func dnsSubdomainName(name string, prefix bool) []string {
	if !prefix {
		if isDNSSubdomain(name) {
			return nil
		}
		return apivalidation.NameIsDNSSubdomain(name, false)
	}
	nameMemo.mu.Lock()
	known := memoHas(nameMemo.current, name) || memoHas(nameMemo.previous, name)
	nameMemo.mu.Unlock()
	if known {
		return nil
	}
	msgs := apivalidation.NameIsDNSSubdomain(name, true)
	if len(msgs) == 0 {
		nameMemo.mu.Lock()
		if nameMemo.current == nil || len(nameMemo.current) >= maxNameMemo {
			nameMemo.previous, nameMemo.current = nameMemo.current, map[string]struct{}{}
		}
		nameMemo.current[name] = struct{}{}
		nameMemo.mu.Unlock()
	}
	return msgs
}
