package informer

import (
	"slices"
	"sort"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// Classifier reads an object's Facts. It must depend on the object alone.
type Classifier func(obj apiserver.Object) Facts

// Facts are what a Classifier reads from an object: the group it is counted
// in (State, Tag) and numbers kept with the cached object, so that a caller
// scanning many objects reads them instead of the objects.
type Facts struct {
	// State is a small state (for pods: active, ready, terminating bits).
	State uint8
	// Tag is a short string (for pods: the node name).
	Tag string
	// Nums are the classifier's own numbers (for pods: the deletion
	// ranking's inputs); groups ignore them.
	Nums [7]int64
}

// Group is a set of cached objects filed under one value of the summarized
// index that carry the same labels and the same classifier state and tag.
type Group struct {
	// Labels are the labels every object of the group carries (one
	// object's own map: read-only).
	Labels map[string]string
	// State and Tag are the classifier's answer for every object of the
	// group.
	State uint8
	Tag   string
	// Count is the number of objects in the group; always > 0.
	Count int
}

// group is a Group plus the signature of its labels (labelSignature).
type group struct {
	Group
	sig string
}

// groupSummary is the optional per-index-value tally of a Store: for one
// index (fixed by Summarize), every value's objects grouped by label set and
// state and tag. A sync that only needs counts reads a few groups instead
// of every object.
type groupSummary struct {
	// index is the position of the summarized index in Store.indexNames.
	index int
	// classify gives each object its state.
	classify Classifier
	// byValue[v] holds the groups of the objects the summarized index files
	// under v, in order of first appearance; a group is dropped when its
	// count reaches 0 and a value when its last group goes. Invariant: equal
	// to a recount of the store (see recount). Snapshot: yes.
	byValue map[string][]group
}

// Summarize makes the store keep, for every value of the named index, its
// objects grouped by label set and by classify's state and tag (see
// EachGroup). It is
// wiring, like the indexers: a later call replaces the classifier and
// recounts. It reports false, and does nothing, when the store has no such
// index.
func (s *Store) Summarize(index string, classify Classifier) bool {
	i := slices.Index(s.indexNames, index)
	if i < 0 {
		return false
	}
	s.groups = &groupSummary{index: i, classify: classify}
	s.groups.byValue = s.recount()
	return true
}

// Summarized reports whether Groups answers for index.
func (s *Store) Summarized(index string) bool {
	return s.groups != nil && s.indexNames[s.groups.index] == index
}

// EachByIndexFacts is EachByIndex for the summarized index, handing fn
// each object's Facts as well (read-only). It calls nothing for another
// index.
func (s *Store) EachByIndexFacts(index, value string, fn func(obj apiserver.Object, f *Facts)) {
	if !s.Summarized(index) {
		return
	}
	if set := s.indices[index][value]; set != nil {
		set.each(&s.entries, func(e *entry) { fn(e.obj, &e.facts) })
	}
}

// EachGroup calls fn for every group of the objects the summarized index
// files under value, in order of the groups' first appearance. fn must not
// modify the store. It calls nothing when index is not the summarized one.
func (s *Store) EachGroup(index, value string, fn func(g Group)) {
	if !s.Summarized(index) {
		return
	}
	for _, g := range s.groups.byValue[value] {
		fn(g.Group)
	}
}

// recount builds the groups of every value from the cached objects, giving
// each entry its signature and state (as count does).
func (s *Store) recount() map[string][]group {
	out := map[string][]group{}
	s.order.items.each(func(q uint64) {
		e := s.writable(s.entries.get(q))
		e.labelSig = labelSignature(e.obj.GetLabels())
		e.facts = s.groups.classify(e.obj)
		for _, v := range e.indexed[s.groups.index] {
			out[v] = appendCounted(out[v], e)
		}
	})
	return out
}

// count adds e, under its signature and current state, to the groups of
// the values it is indexed under. e.labelSig must be current.
func (s *Store) count(e *entry) {
	g := s.groups
	if g == nil {
		return
	}
	e.facts = g.classify(e.obj)
	for _, v := range e.indexed[g.index] {
		g.add(v, e)
	}
}

// uncount removes e from the groups it was last counted in.
func (s *Store) uncount(e *entry) {
	if g := s.groups; g != nil {
		g.remove(e.indexed[g.index], e.counted())
	}
}

// regroup moves an updated entry between groups: it was counted as was
// under the values prevVals; e.labelSig and e.indexed are current. The
// usual update (same values, labels, state and tag) touches no group.
func (s *Store) regroup(e *entry, prevVals []string, was countedAs) {
	g := s.groups
	if g == nil {
		return
	}
	e.facts = g.classify(e.obj)
	vals := e.indexed[g.index]
	if e.counted() == was && slices.Equal(prevVals, vals) {
		return
	}
	g.remove(prevVals, was)
	for _, v := range vals {
		g.add(v, e)
	}
}

// countedAs is what places an entry in a group.
type countedAs struct {
	sig   string
	state uint8
	tag   string
}

func (e *entry) counted() countedAs {
	return countedAs{sig: e.labelSig, state: e.facts.State, tag: e.facts.Tag}
}

func (g *group) counted() countedAs { return countedAs{sig: g.sig, state: g.State, tag: g.Tag} }

// add counts e (as last classified) under value v.
func (g *groupSummary) add(v string, e *entry) { g.byValue[v] = appendCounted(g.byValue[v], e) }

// remove uncounts one object counted as c under each of vals.
func (g *groupSummary) remove(vals []string, c countedAs) {
	for _, v := range vals {
		gs := g.byValue[v]
		for i := range gs {
			if gs[i].counted() != c {
				continue
			}
			if gs[i].Count--; gs[i].Count > 0 {
				break
			}
			if gs = slices.Delete(gs, i, i+1); len(gs) == 0 {
				delete(g.byValue, v)
			} else {
				g.byValue[v] = gs
			}
			break
		}
	}
}

// appendCounted counts e (as last classified) in gs, a value's groups:
// groupSummary.add, and recount on a bare slice.
func appendCounted(gs []group, e *entry) []group {
	c := e.counted()
	for i := range gs {
		if gs[i].counted() == c {
			gs[i].Count++
			return gs
		}
	}
	return append(gs, group{Group: Group{Labels: e.obj.GetLabels(), State: e.facts.State, Tag: e.facts.Tag, Count: 1}, sig: e.labelSig})
}

// labelSignature renders a label set canonically: its pairs sorted by key,
// each "key\x00value\x00" (NUL occurs in neither). Equal sets give equal
// signatures; the empty set gives "".
func labelSignature(l map[string]string) string {
	switch len(l) {
	case 0:
		return ""
	case 1:
		for k, v := range l {
			return k + "\x00" + v + "\x00"
		}
	}
	keys := make([]string, 0, len(l))
	n := 0
	for k, v := range l {
		keys = append(keys, k)
		n += len(k) + len(v) + 2
	}
	sort.Strings(keys)
	var b strings.Builder
	b.Grow(n)
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(l[k])
		b.WriteByte(0)
	}
	return b.String()
}

// checkpoint copies the groups (the Labels maps are cached objects' own,
// shared).
func (g *groupSummary) checkpoint() map[string][]group {
	if g == nil {
		return nil
	}
	out := make(map[string][]group, len(g.byValue))
	for v, gs := range g.byValue {
		out[v] = slices.Clone(gs)
	}
	return out
}

// restore makes the groups equal to saved (from checkpoint).
func (g *groupSummary) restore(saved map[string][]group) {
	if g == nil {
		return
	}
	for v := range g.byValue {
		if _, ok := saved[v]; !ok {
			delete(g.byValue, v)
		}
	}
	for v, gs := range saved {
		g.byValue[v] = append(g.byValue[v][:0], gs...)
	}
}
