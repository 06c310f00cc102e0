package scenario

import (
	"strconv"
	"strings"
	"time"
)

// YAML core-schema tags as the parser resolves them.
const (
	tagStr   = "!!str"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagBool  = "!!bool"
	tagNull  = "!!null"
)

// errTooMany stops a parse once MaxErrors errors are collected.
type errTooMany struct{}

// docReader reads one document and collects its errors.
type docReader struct {
	p   *parser
	doc int
	// lineOffset is added to every node line (non-zero for a manifest
	// nested in a block scalar).
	lineOffset int
	// visits counts nodes visited, alias expansions included.
	visits int
	// lines, when set, collects the line of every field the typed check
	// visits, by field path ("spec.template.spec.containers[0].image"; map
	// keys as "metadata.labels[app]"), so that the API server's errors can
	// be placed on the line of the field they name.
	lines map[string]int
}

// noteLine records the line of the field at path (the first one wins).
func (r *docReader) noteLine(path string, n *node) {
	if r.lines == nil || n == nil {
		return
	}
	if _, ok := r.lines[path]; !ok {
		r.lines[path] = n.Line + r.lineOffset
	}
}

// errorf records an error at node n (nil: the document start).
func (r *docReader) errorf(n *node, field, msg string) {
	e := &Error{File: r.p.file, Doc: r.doc, Field: field, Message: msg}
	if n != nil {
		e.Line, e.Column = n.Line+r.lineOffset, n.Column
		if r.lineOffset != 0 {
			e.Column = 0
		}
	}
	r.p.add(e)
}

// visit counts one node and reports whether the budget allows going on.
func (r *docReader) visit() bool {
	r.visits++
	return r.visits <= maxNodeVisits
}

// resolve follows aliases (bounded by the visit budget).
func resolve(n *node) *node {
	for i := 0; n != nil && n.Kind == aliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// describe names a node's YAML type for messages: "a string", "a mapping".
func describe(n *node) string {
	switch n.Kind {
	case mappingNode:
		return "a mapping"
	case sequenceNode:
		return "a list"
	case scalarNode:
		switch n.Tag {
		case tagInt:
			return "an integer (" + n.Value + ")"
		case tagFloat:
			return "a number (" + n.Value + ")"
		case tagBool:
			return "a boolean (" + n.Value + ")"
		case tagNull:
			return "null"
		}
		return strconv.Quote(n.Value)
	}
	return "an alias"
}

// valueText renders a scalar for "invalid value X" messages: strings quoted,
// numbers, booleans and null as written.
func valueText(n *node) string {
	if n.Kind != scalarNode {
		return describe(n)
	}
	switch n.Tag {
	case tagInt, tagFloat, tagBool, tagNull:
		return n.Value
	}
	return strconv.Quote(n.Value)
}

// join appends a key to a field path.
func join(path, key string) string {
	if key == "" {
		return path
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// index appends a list index to a field path.
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// field is one key of a mapping with its value.
type field struct {
	key   *node
	value *node
}

// mapping returns the entries of a mapping node by key, reporting unknown
// and duplicate keys. known lists the accepted keys; nil accepts any string
// key. ok is false when n is not a mapping (already reported).
func (r *docReader) mapping(n *node, path string, known []string) (map[string]field, bool) {
	n = resolve(n)
	if n == nil || n.Kind != mappingNode {
		if n != nil && n.Kind == scalarNode && n.Tag == tagNull {
			return map[string]field{}, true
		}
		r.errorf(n, path, "expected a mapping, got "+describe(n))
		return nil, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := resolve(n.Content[i]); k.Kind == scalarNode && k.Tag == "!!merge" && !mergeable(n.Content[i+1]) {
			r.errorf(k, path, "a merge key (<<) needs a mapping or a list of mappings, got "+describe(resolve(n.Content[i+1])))
		}
	}
	content := mergedContent(n)
	if len(content) >= 2*maxMergedFields {
		r.errorf(n, path, "merge keys (<<) give this mapping more than "+strconv.Itoa(maxMergedFields)+" fields")
		return nil, false
	}
	out := make(map[string]field, len(content)/2)
	for i := 0; i+1 < len(content); i += 2 {
		k, v := resolve(content[i]), content[i+1]
		if !r.visit() {
			r.errorf(k, path, "document is too large or nests aliases too deeply")
			return nil, false
		}
		if k.Kind != scalarNode {
			r.errorf(k, path, "expected a field name, got "+describe(k))
			continue
		}
		if known != nil && !contains(known, k.Value) {
			r.errorf(k, join(path, k.Value), unknownFieldMessage(k.Value, known))
			continue
		}
		if first, dup := out[k.Value]; dup {
			r.errorf(k, join(path, k.Value), "duplicate field (first given on line "+strconv.Itoa(first.key.Line+r.lineOffset)+")")
			continue
		}
		out[k.Value] = field{key: k, value: v}
	}
	return out, true
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// scalar returns a scalar node or reports what was found instead.
func (r *docReader) scalar(n *node, path, want string) (*node, bool) {
	n = resolve(n)
	if n == nil || n.Kind != scalarNode || n.Tag == tagNull {
		r.errorf(n, path, "expected "+want+", got "+describe(n))
		return nil, false
	}
	return n, true
}

// str reads a string. Plain scalars of other types (numbers, booleans) are
// accepted as their text, as a YAML author would expect for names.
func (r *docReader) str(n *node, path string) (string, bool) {
	s, ok := r.scalar(n, path, "a string")
	if !ok {
		return "", false
	}
	return s.Value, true
}

// integer reads an integer in [lo, hi].
func (r *docReader) integer(n *node, path string, lo, hi int64) (int64, bool) {
	s, ok := r.scalar(n, path, "an integer")
	if !ok {
		return 0, false
	}
	if s.Tag != tagInt {
		r.errorf(s, path, "invalid value "+valueText(s)+": must be an integer")
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s.Value, "_", ""), 0, 64)
	if err != nil || v < lo || v > hi {
		r.errorf(s, path, "invalid value "+s.Value+": must be between "+strconv.FormatInt(lo, 10)+" and "+strconv.FormatInt(hi, 10))
		return 0, false
	}
	return v, true
}

// boolean reads true or false.
func (r *docReader) boolean(n *node, path string) (bool, bool) {
	s, ok := r.scalar(n, path, "true or false")
	if !ok {
		return false, false
	}
	if s.Tag != tagBool {
		r.errorf(s, path, "invalid value "+valueText(s)+": must be true or false")
		return false, false
	}
	return s.Value == "true" || s.Value == "True" || s.Value == "TRUE", true
}

// duration reads a non-negative Go duration string ("1m30s"). A bare 0 is
// accepted; other bare numbers are refused because their unit is unknown.
func (r *docReader) duration(n *node, path string) (time.Duration, bool) {
	s, ok := r.scalar(n, path, `a duration like "30s"`)
	if !ok {
		return 0, false
	}
	if s.Tag == tagInt && s.Value == "0" {
		return 0, true
	}
	d, err := time.ParseDuration(s.Value)
	if s.Tag != tagStr || err != nil {
		r.errorf(s, path, "invalid value "+strconv.Quote(s.Value)+`: must be a duration like "30s", "1m30s" or "250ms"`)
		return 0, false
	}
	if d < 0 {
		r.errorf(s, path, "invalid value "+strconv.Quote(s.Value)+": must not be negative")
		return 0, false
	}
	return d, true
}

// mergedContent returns the keys and values of mapping n with YAML merge
// keys ("<<: *base", "<<: [*a, *b]") expanded: the merged mappings' entries
// follow n's own, an entry n gives itself wins over a merged one, and among
// merged mappings the first listed wins. Other nodes are returned as is.
func mergedContent(n *node) []*node {
	if n == nil {
		return nil
	}
	if n.Kind != mappingNode || !hasMergeKey(n) {
		return n.Content
	}
	switch n.mergeState {
	case 2:
		return n.merged
	case 1:
		return n.Content // a cycle cannot be written in YAML; stay safe
	}
	n.mergeState = 1
	var own, merged []*node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolve(n.Content[i])
		if k.Kind == scalarNode && k.Tag == "!!merge" {
			v := resolve(n.Content[i+1])
			sources := []*node{v}
			if v.Kind == sequenceNode {
				sources = v.Content
			}
			for _, src := range sources {
				if src = resolve(src); src != nil && src.Kind == mappingNode {
					merged = append(merged, mergedContent(src)...)
				}
			}
			continue
		}
		own = append(own, n.Content[i], n.Content[i+1])
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(own); i += 2 {
		seen[resolve(own[i]).Value] = true
	}
	out := own
	for i := 0; i+1 < len(merged) && len(out) < 2*maxMergedFields; i += 2 {
		k := resolve(merged[i]).Value
		if !seen[k] {
			seen[k] = true
			out = append(out, merged[i], merged[i+1])
		}
	}
	n.merged, n.mergeState = out, 2
	return out
}

// maxMergedFields bounds the fields merge keys may give one mapping; a
// mapping that reaches it is reported (see mapping).
const maxMergedFields = 10000

// mergeable reports whether v may follow "<<:".
func mergeable(v *node) bool {
	v = resolve(v)
	if v.Kind == sequenceNode {
		for _, c := range v.Content {
			if resolve(c).Kind != mappingNode {
				return false
			}
		}
		return true
	}
	return v.Kind == mappingNode
}

func hasMergeKey(n *node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		if k := resolve(n.Content[i]); k != nil && k.Kind == scalarNode && k.Tag == "!!merge" {
			return true
		}
	}
	return false
}
