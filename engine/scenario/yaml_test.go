package scenario

import (
	"io"
	"strings"
	"testing"
)

// TestYAMLReader checks the reader on the constructs scenario files use: the
// body of the first document is rendered as kind/tag/value@line:column.
func TestYAMLReader(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a: 1", "mapping !!map @1:1 [scalar !!str a @1:1, scalar !!int 1 @1:4]"},
		{"- x\n- 0x1F\n- ~\n- yes\n- 1.5e3\n- 2001-12-14", "sequence !!seq @1:1 [scalar !!str x @1:3, scalar !!int 0x1F @2:3, scalar !!null ~ @3:3, scalar !!str yes @4:3, scalar !!float 1.5e3 @5:3, scalar !!timestamp 2001-12-14 @6:3]"},
		{"k: [a, {b: \"c\"}]", "mapping !!map @1:1 [scalar !!str k @1:1, sequence !!seq @1:4 [scalar !!str a @1:5, mapping !!map @1:8 [scalar !!str b @1:9, scalar !!str c @1:12]]]"},
		{"s: |\n  one\n  two\n", "mapping !!map @1:1 [scalar !!str s @1:1, scalar !!str one\ntwo\n @1:4]"},
		{"s: >-\n  one\n  two\n\n  three\n", "mapping !!map @1:1 [scalar !!str s @1:1, scalar !!str one two\nthree @1:4]"},
		{"a: &x 5\nb: *x", "mapping !!map @1:1 [scalar !!str a @1:1, scalar !!int 5 @1:4, scalar !!str b @2:1, alias  x @2:4]"},
		{"p: a\n  b", "mapping !!map @1:1 [scalar !!str p @1:1, scalar !!str a b @1:4]"},
		{"q: 'it''s'", "mapping !!map @1:1 [scalar !!str q @1:1, scalar !!str it's @1:4]"},
		{"t: !!str 3", "mapping !!map @1:1 [scalar !!str t @1:1, scalar !!str 3 @1:4]"},
	} {
		var n node
		if err := newYAMLDecoder([]byte(c.in)).Decode(&n); err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := renderNode(n.Content[0]); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func renderNode(n *node) string {
	s := n.Kind.String() + " " + n.Tag
	if n.Kind != mappingNode && n.Kind != sequenceNode {
		s += " " + n.Value
	}
	s += " @" + itoa(n.Line) + ":" + itoa(n.Column)
	if len(n.Content) > 0 {
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			parts[i] = renderNode(c)
		}
		s += " [" + strings.Join(parts, ", ") + "]"
	}
	return s
}

// Syntax errors carry libyaml's wording and the line where the problem is
// (the line whose indentation went wrong; where an unclosed quote opened).
func TestYAMLErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a:\n  b: 1\n c: 2", "yaml: line 3: did not find expected key"},
		{"spec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: a\n     image: x\n", "yaml: line 7: did not find expected key"},
		{"a: 1\nb: \"open\nc: 2\n", "yaml: line 2: found unexpected end of stream"},
		{"a: [", "yaml: line 1: did not find expected node content"},
		{"x: [1, 2", "yaml: line 1: did not find expected ',' or ']'"},
		{"a: b: c", "yaml: line 1: mapping values are not allowed in this context"},
		{"a: 1\nb: c\n d: e", "yaml: line 3: mapping values are not allowed in this context"},
		{"a: -", "yaml: line 1: block sequence entries are not allowed in this context"},
		{"a: *nope", "yaml: unknown anchor 'nope' referenced"},
		{"a: 'open", "yaml: line 1: found unexpected end of stream"},
	} {
		var n node
		err := newYAMLDecoder([]byte(c.in)).Decode(&n)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, want %s", c.in, err, c.want)
		}
	}
}

// Documents: empty ones between markers count; the stream ends with io.EOF.
func TestYAMLDocuments(t *testing.T) {
	dec := newYAMLDecoder([]byte("# c\n---\na: 1\n---\n---\nb: 2\n...\n"))
	var kinds []string
	for {
		var n node
		err := dec.Decode(&n)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, n.Content[0].Kind.String()+n.Content[0].Tag)
	}
	if got := strings.Join(kinds, " "); got != "mapping!!map scalar!!null mapping!!map" {
		t.Fatalf("documents: %s", got)
	}
}
