package informer

import (
	"reflect"
	"sort"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// labelBucket is the Store.byLabel key of the objects of namespace ns whose
// label key has value value. A struct rather than a joined string, so that
// no key is built per label on every add, relabel and lookup.
type labelBucket struct {
	ns, key, value string
}

// relabel moves e between label buckets for a change of its object's
// labels from oldLabels to newLabels (nil for an object that was not or is
// no longer cached). Labels that keep their value are not touched. It
// reports whether the labels changed.
func (s *Store) relabel(e *entry, ns string, oldLabels, newLabels map[string]string) bool {
	if sameLabels(oldLabels, newLabels) {
		return false // the usual update: status or spec, not labels
	}
	for k, v := range oldLabels {
		if nv, ok := newLabels[k]; ok && nv == v {
			continue
		}
		bk := labelBucket{ns, k, v}
		if set := s.byLabel[bk]; set != nil {
			set.remove(s.token, e)
			if set.len() == 0 {
				delete(s.byLabel, bk)
			}
		}
	}
	for k, v := range newLabels {
		if ov, ok := oldLabels[k]; ok && ov == v {
			continue
		}
		bk := labelBucket{ns, k, v}
		set := s.byLabel[bk]
		if set == nil {
			set = newOrderedSet(s.token)
			s.byLabel[bk] = set
		}
		// e is in the bucket of each label it carries, and its object did
		// not carry this pair.
		set.addAbsent(s.token, e)
	}
	return true
}

// sameLabels reports whether a and b hold the same pairs (nil and empty
// alike).
func sameLabels(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	if sameMap(a, b) {
		return true // a status write keeps the stored labels map
	}
	for k, v := range b {
		if ov, ok := a[k]; !ok || ov != v {
			return false
		}
	}
	return true
}

// sameMap reports whether a and b are the same map (not merely equal).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// narrowest returns the smallest label bucket that holds every object of
// namespace ns matching sel: the bucket of one of sel's single-valued
// equality requirements (=, == or "in" with one value). ok is false when
// sel has no such requirement, and the caller must scan the namespace. A
// nil set with ok true means no object can match.
func (s *Store) narrowest(ns string, sel labels.Selector) (set *orderedSet, ok bool) {
	reqs, selectable := sel.Requirements()
	if !selectable {
		return nil, false
	}
	for i := range reqs {
		r := &reqs[i]
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
		default:
			continue
		}
		vals := r.ValuesUnsorted()
		if len(vals) != 1 {
			continue
		}
		b := s.byLabel[labelBucket{ns, r.Key(), vals[0]}]
		if b == nil {
			return nil, true
		}
		if !ok || b.len() < set.len() {
			set, ok = b, true
		}
	}
	return set, ok
}

// listFromBucket returns the objects of bucket matching sel in the
// insertion order of namespace ns (the order a scan of the namespace
// gives: ascending entry seq), nil when none match. A bucket is already in
// that order unless some of its objects changed labels, so the sort is
// usually skipped.
func (s *Store) listFromBucket(bucket *orderedSet, sel labels.Selector) []apiserver.Object {
	if bucket == nil {
		return nil
	}
	var hits []*entry
	sorted := true
	bucket.each(&s.entries, func(e *entry) {
		if !sel.Matches(labels.Set(e.obj.GetLabels())) {
			return
		}
		if n := len(hits); n > 0 && hits[n-1].seq > e.seq {
			sorted = false
		}
		hits = append(hits, e)
	})
	if len(hits) == 0 {
		return nil
	}
	if !sorted {
		sort.Slice(hits, func(i, j int) bool { return hits[i].seq < hits[j].seq })
	}
	out := make([]apiserver.Object, len(hits))
	for i, e := range hits {
		out[i] = e.obj
	}
	return out
}

// EachMatching calls fn for every cached object of namespace ns ("" for
// all) matching
// sel (nil matches everything): the objects List(ns, sel) returns, in no
// particular order, without building a slice. For callers that only count.
// fn must not modify the store.
func (s *Store) EachMatching(ns string, sel labels.Selector, fn func(obj apiserver.Object)) {
	visit := func(e *entry) {
		if sel == nil || sel.Matches(labels.Set(e.obj.GetLabels())) {
			fn(e.obj)
		}
	}
	if ns != "" && sel != nil {
		if bucket, ok := s.narrowest(ns, sel); ok {
			if bucket != nil {
				bucket.each(&s.entries, visit)
			}
			return
		}
	}
	if ns == "" {
		s.order.each(&s.entries, visit)
	} else if set := s.byNamespace[ns]; set != nil {
		set.each(&s.entries, visit)
	}
}

// NarrowestCount bounds the number of cached objects of namespace ns that
// match sel: it returns the size of the label bucket List would read (see
// narrowest), which holds every match. ok is false when sel has no
// single-valued equality requirement (no bound short of the namespace).
func (s *Store) NarrowestCount(ns string, sel labels.Selector) (n int, ok bool) {
	bucket, ok := s.narrowest(ns, sel)
	if !ok || bucket == nil {
		return 0, ok
	}
	return bucket.len(), true
}
