package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// yamlSuiteCases are cases in the style of the public YAML test suite
// (in.yaml -> in.json, one JSON value per document), written from the YAML
// 1.2 specification's examples for the features Kubernetes manifests use:
// block scalars with every header, anchors, aliases and merge keys, flow
// collections, quoted and multi-line scalars, comments, document markers,
// directives, tags, CRLF line ends and tabs. "⇥" stands for a tab and "↵"
// for a CR LF line end in the inputs.
var yamlSuiteCases = []struct {
	name string
	in   string
	// json holds one JSON text per document.
	json []string
}{
	{"Spec Example 2.10. Node for “Sammy Sosa” appears twice", `---
hr:
  - Mark McGwire
  # Following node labeled SS
  - &SS Sammy Sosa
rbi:
  - *SS # Subsequent occurrence
  - Ken Griffey
`, []string{`{"hr":["Mark McGwire","Sammy Sosa"],"rbi":["Sammy Sosa","Ken Griffey"]}`}},
	{"Spec Example 2.13. In literals, newlines are preserved", "# ASCII Art\n--- |\n  \\//||\\/||\n  // ||  ||__\n",
		[]string{`"\\//||\\/||\n// ||  ||__\n"`}},
	{"Spec Example 2.14. In the folded scalars, newlines become spaces", "--- >\n  Mark McGwire's\n  year was crippled\n  by a knee injury.\n",
		[]string{`"Mark McGwire's year was crippled by a knee injury.\n"`}},
	{"Spec Example 2.17. Quoted Scalars", `unicode: "Sosa did fine.\u263A"
control: "\b1998\t1999\t2000\n"
hex esc: "\x0d\x0a is \r\n"

single: '"Howdy!" he cried.'
quoted: ' # Not a ''comment''.'
tie-fighter: '|\-*-/|'
`, []string{`{"unicode":"Sosa did fine.☺","control":"\b1998\t1999\t2000\n","hex esc":"\r\n is \r\n","single":"\"Howdy!\" he cried.","quoted":" # Not a 'comment'.","tie-fighter":"|\\-*-/|"}`}},
	{"Spec Example 2.18. Multi-line Flow Scalars", "plain:\n  This unquoted scalar\n  spans many lines.\n\nquoted: \"So does this\n  quoted scalar.\\n\"\n",
		[]string{`{"plain":"This unquoted scalar spans many lines.","quoted":"So does this quoted scalar.\n"}`}},
	{"Spec Example 2.23. Various Explicit Tags (!!str)", "---\nnot-date: !!str 2002-04-28\ncount: !!int \"3\"\nport: !!str 8080\n",
		[]string{`{"not-date":"2002-04-28","count":3,"port":"8080"}`}},
	{"Spec Example 6.9. Separated Comment", "key:    # Comment\n  value", []string{`{"key":"value"}`}},
	{"Spec Example 6.10. Comment Lines", "  # Comment\n   \n\n", nil},
	{"Spec Example 6.11. Multi-Line Comments", "key:    # Comment\n        # lines\n  value\n\n", []string{`{"key":"value"}`}},
	{"Spec Example 7.4. Double Quoted Implicit Keys", "\"implicit block key\" : [\n  \"implicit flow key\" : value,\n ]\n",
		[]string{`{"implicit block key":[{"implicit flow key":"value"}]}`}},
	{"Spec Example 7.5. Double Quoted Line Breaks", "\"folded \nto a space,⇥\n \nto a line feed, or ⇥\\\n \\ ⇥non-content\"\n",
		[]string{`"folded to a space,\nto a line feed, or \t \tnon-content"`}},
	{"Spec Example 7.6. Double Quoted Lines", "\" 1st non-empty\n\n 2nd non-empty \n⇥3rd non-empty \"\n",
		[]string{`" 1st non-empty\n2nd non-empty 3rd non-empty "`}},
	{"Spec Example 7.9. Single Quoted Lines", "' 1st non-empty\n\n 2nd non-empty \n⇥3rd non-empty '\n",
		[]string{`" 1st non-empty\n2nd non-empty 3rd non-empty "`}},
	{"Spec Example 7.12. Plain Lines", "1st non-empty\n\n 2nd non-empty \n⇥3rd non-empty\n",
		[]string{`"1st non-empty\n2nd non-empty 3rd non-empty"`}},
	{"Spec Example 7.13. Flow Sequence", "- [ one, two, ]\n- [three ,four]\n", []string{`[["one","two"],["three","four"]]`}},
	{"Spec Example 7.14. Flow Sequence Entries", "[\n\"double\n quoted\", 'single\n           quoted',\nplain\n text, [ nested ],\nsingle: pair,\n]\n",
		[]string{`["double quoted","single quoted","plain text",["nested"],{"single":"pair"}]`}},
	{"Spec Example 7.15. Flow Mappings", "- { one : two , three: four , }\n- {five: six,seven : eight}\n",
		[]string{`[{"one":"two","three":"four"},{"five":"six","seven":"eight"}]`}},
	{"Spec Example 8.1. Block Scalar Header", "- | # Empty header\n literal\n- >1 # Indentation indicator\n  folded\n- |+ # Chomping indicator\n keep\n\n- >1- # Both indicators\n  strip\n",
		[]string{`["literal\n"," folded\n","keep\n\n"," strip"]`}},
	{"Spec Example 8.2. Block Indentation Indicator", "- |\n detected\n- >\n \n  \n  # detected\n- |1\n  explicit\n",
		[]string{`["detected\n","\n\n# detected\n"," explicit\n"]`}},
	{"Spec Example 8.4. Chomping Final Line Break", "strip: |-\n  text\nclip: |\n  text\nkeep: |+\n  text\n",
		[]string{`{"strip":"text","clip":"text\n","keep":"text\n"}`}},
	{"Spec Example 8.5. Chomping Trailing Lines", " # Strip\n  # Comments:\nstrip: |-\n  # text\n  \n # Clip\n  # comments:\n\nclip: |\n  # text\n \n # Keep\n  # comments:\n\nkeep: |+\n  # text\n\n # Trail\n  # comments.\n",
		[]string{`{"strip":"# text","clip":"# text\n","keep":"# text\n\n"}`}},
	{"Spec Example 8.6. Empty Scalar Chomping", "strip: >-\n\nclip: >\n\nkeep: |+\n\n",
		[]string{`{"strip":"","clip":"","keep":"\n"}`}},
	{"Spec Example 8.7. Literal Scalar", "|\n literal\n ⇥text\n\n", []string{`"literal\n\ttext\n"`}},
	{"Spec Example 8.8. Literal Content", "|\n \n  \n  literal\n   \n  \n  text\n\n # Comment\n",
		[]string{`"\n\nliteral\n \n\ntext\n"`}},
	{"Spec Example 8.9. Folded Scalar", ">\n folded\n text\n\n", []string{`"folded text\n"`}},
	{"Spec Example 8.10. Folded Lines", ">\n\n folded\n line\n\n next\n line\n   * bullet\n\n   * list\n   * lines\n\n last\n line\n\n# Comment\n",
		[]string{`"\nfolded line\nnext line\n  * bullet\n\n  * list\n  * lines\n\nlast line\n"`}},
	{"Spec Example 9.2. Document Markers", "%YAML 1.2\n---\nDocument\n... # Suffix\n", []string{`"Document"`}},
	{"Spec Example 9.3. Bare Documents", "Bare\ndocument\n...\n# No document\n...\n|\n%!PS-Adobe-2.0 # Not the first line\n",
		[]string{`"Bare document"`, `"%!PS-Adobe-2.0 # Not the first line\n"`}},
	{"Spec Example 9.4. Explicit Documents", "---\n{ matches\n% : 20 }\n...\n---\n# Empty\n...\n",
		[]string{`{"matches %":20}`, `null`}},
	{"Spec Example 9.5. Directives Documents", "%YAML 1.2\n--- |\n%!PS-Adobe-2.0\n...\n%YAML 1.2\n---\n# Empty\n...\n",
		[]string{`"%!PS-Adobe-2.0\n"`, `null`}},
	{"Merge Key Language-Independent Type (yaml.org/type/merge)", `---
- &CENTER { x: 1, y: 2 }
- &LEFT { x: 0, y: 2 }
- &BIG { r: 10 }
- &SMALL { r: 1 }

# All the following maps are equal:

- # Explicit keys
  x: 1
  y: 2
  r: 10
  label: center/big

- # Merge one map
  << : *CENTER
  r: 10
  label: center/big

- # Merge multiple maps
  << : [ *CENTER, *BIG ]
  label: center/big

- # Override
  << : [ *BIG, *LEFT, *SMALL ]
  x: 1
  label: center/big
`, []string{`[{"x":1,"y":2},{"x":0,"y":2},{"r":10},{"r":1},{"x":1,"y":2,"r":10,"label":"center/big"},{"x":1,"y":2,"r":10,"label":"center/big"},{"x":1,"y":2,"r":10,"label":"center/big"},{"x":1,"y":2,"r":10,"label":"center/big"}]`}},
	{"CRLF line ends", "a: 1↵b: |↵  x↵  y↵c: \"q↵  r\"↵d: plain↵  more↵", []string{`{"a":1,"b":"x\ny\n","c":"q r","d":"plain more"}`}},
	{"Tabs inside strings", "a: \"x\\ty\"\nb: 'x⇥y'\nc: x⇥y\n", []string{`{"a":"x\ty","b":"x\ty","c":"x\ty"}`}},
	{"Indentation indicator under a key (|2, |-)", "script: |2\n    indented\n  normal\nlast: |-\n  no newline\n",
		[]string{`{"script":"  indented\nnormal\n","last":"no newline"}`}},
	{"Block sequence at the key's indentation (Kubernetes style)", "containers:\n- name: web\n  args:\n  - --port=80\n  - \"--verbose\"\nnext: 1\n",
		[]string{`{"containers":[{"name":"web","args":["--port=80","--verbose"]}],"next":1}`}},
	{"Empty documents and a trailing marker (which starts an empty one)", "---\n---\na: 1\n---\n", []string{`null`, `{"a":1}`, `null`}},
	{"Core schema scalars", "- 0o14\n- +12\n- .5\n- 1e3\n- 0x1A\n- -.inf\n- ~\n- Null\n- TRUE\n- \"true\"\n- 1_000\n- 012\n",
		[]string{`[12,12,0.5,1000,26,"-.inf",null,null,true,"true",1000,10]`}},
}

// decodeAllJSON reads every document of in and renders each as JSON.
func decodeAllJSON(t *testing.T, in string) []any {
	t.Helper()
	dec := newYAMLDecoder([]byte(in))
	var out []any
	for {
		var n node
		err := dec.Decode(&n)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		var b bytes.Buffer
		writeJSON(&b, &n, 0)
		var v any
		if err := json.Unmarshal(b.Bytes(), &v); err != nil {
			t.Fatalf("json %s: %v", b.String(), err)
		}
		out = append(out, v)
	}
}

func TestYAMLSuite(t *testing.T) {
	for _, c := range yamlSuiteCases {
		t.Run(c.name, func(t *testing.T) {
			in := strings.NewReplacer("⇥", "\t", "↵", "\r\n").Replace(c.in)
			got := decodeAllJSON(t, in)
			var want []any
			for _, j := range c.json {
				var v any
				if err := json.Unmarshal([]byte(j), &v); err != nil {
					t.Fatalf("bad want %s: %v", j, err)
				}
				want = append(want, v)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("\n got %s\nwant %s", g, w)
			}
		})
	}
}

// What the reader still refuses, each with a clear error at its line. These
// are YAML features Kubernetes manifests do not use (explicit "? " keys,
// aliases as keys) or that kubectl refuses too (tabs in indentation).
func TestYAMLRefused(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"explicit key (Spec Example 8.19 style)", "? a\n: b\n", `yaml: line 1: explicit mapping keys ("? key") are not supported`},
		{"tab in indentation", "spec:\n\treplicas: 1\n", "yaml: line 2: found a tab character that violates indentation"},
		{"tab in a list item's indentation", "containers:\n- name: a\n\timage: b\n", "yaml: line 3:"},
		{"alias as a key", "&a k: 1\n*a : 2\n", "yaml: line 2:"},
		{"reserved indicator @", "a: @x\n", "yaml: line 1: found character that cannot start any token"},
		{"reserved indicator `", "a: `x`\n", "yaml: line 1: found character that cannot start any token"},
		{"less indented block scalar line", "a: |\n  x\n y\n", "yaml: line 3: did not find expected key"},
		{"unknown alias", "a: *nope\n", "yaml: unknown anchor 'nope' referenced"},
	} {
		var n node
		err := newYAMLDecoder([]byte(c.in)).Decode(&n)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %q: got %v, want %s...", c.name, c.in, err, c.want)
		}
	}
}

// A byte order mark at the start of the stream is not part of the content.
func TestYAMLByteOrderMark(t *testing.T) {
	got := decodeAllJSON(t, "\ufeffapiVersion: v1\n")
	if m, ok := got[0].(map[string]any); !ok || m["apiVersion"] != "v1" {
		t.Fatalf("%v", got)
	}
}

// Merge keys that merge an anchor twice, 60 levels deep, would expand to
// 2^60 entries without the per-node cache; the parse ends at once.
func TestMergeKeyChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    <<: *a59\nx0: &a0 {k0: \"0\"}\n")
	for i := 1; i < 60; i++ {
		fmt.Fprintf(&b, "x%d: &a%d {<<: [*a%d, *a%d], k%d: \"%d\"}\n", i, i, i-1, i-1, i, i)
	}
	// The anchors are defined after their use: an error, found at once.
	if _, err := Parse("bomb.yaml", []byte(b.String())); err == nil {
		t.Fatal("alias before its anchor accepted")
	}
	src := "x0: &a0 {k0: \"0\"}\n"
	for i := 1; i < 60; i++ {
		src += fmt.Sprintf("x%d: &a%d {<<: [*a%d, *a%d], k%d: \"%d\"}\n", i, i, i-1, i-1, i, i)
	}
	got := decodeAllJSON(t, src)
	m := got[0].(map[string]any)["x59"].(map[string]any)
	if len(m) != 60 || m["k0"] != "0" || m["k59"] != "59" {
		t.Fatalf("x59 = %v", m)
	}
}
