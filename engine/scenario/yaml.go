package scenario

import (
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// This file is the package's own YAML reader. It replaces go.yaml.in/yaml/v3
// (about 70 KB of brotli-compressed wasm) with what a scenario file needs: a
// node tree with positions and core-schema tags, as yaml.v3's Node API gives.
// It reads block and flow collections, plain, quoted, literal and folded
// scalars, anchors, aliases and tags, and several documents per stream.
// Syntax errors use libyaml's wording, but name the line where the problem
// is (see syntaxErr), which libyaml often does not.

// nodeKind is the shape of a YAML node.
type nodeKind uint8

const (
	// documentNode is a whole document; Content holds its one body node.
	documentNode nodeKind = iota + 1
	// sequenceNode is a list; Content holds the items.
	sequenceNode
	// mappingNode is a mapping; Content holds keys and values alternately.
	mappingNode
	// scalarNode is a single value; Value holds its text.
	scalarNode
	// aliasNode is *name; Alias points at the anchored node.
	aliasNode
)

// String names the kind.
func (k nodeKind) String() string {
	switch k {
	case documentNode:
		return "document"
	case sequenceNode:
		return "sequence"
	case mappingNode:
		return "mapping"
	case scalarNode:
		return "scalar"
	case aliasNode:
		return "alias"
	}
	return "unknown"
}

// scalarStyle is how a scalar was written.
type scalarStyle uint8

const (
	// plainStyle: unquoted.
	plainStyle scalarStyle = iota
	// singleQuotedStyle: 'text'.
	singleQuotedStyle
	// doubleQuotedStyle: "text".
	doubleQuotedStyle
	// literalStyle: a | block.
	literalStyle
	// foldedStyle: a > block.
	foldedStyle
	// flowStyle: a [..] or {..} collection.
	flowStyle
)

// String names the style.
func (s scalarStyle) String() string {
	return [...]string{"plain", "single-quoted", "double-quoted", "literal", "folded", "flow"}[s]
}

// node is one YAML node.
type node struct {
	Kind  nodeKind
	Style scalarStyle
	// Tag is the resolved short tag ("!!str", "!!int", "!!map", ...), or the
	// explicit tag as written when it is not a core one.
	Tag string
	// Value is a scalar's text, or an alias's anchor name.
	Value string
	// Alias is the node an aliasNode refers to; nil otherwise.
	Alias *node
	// Content: the body of a document, the items of a sequence, or keys and
	// values alternately for a mapping.
	Content []*node
	// Line and Column are 1-based; a node with an anchor or tag starts at
	// its first property.
	Line, Column int
	// merged caches mergedContent of a mapping with merge keys, so that a
	// chain of anchors merging each other twice costs linear, not
	// exponential, time; mergeState is 0 (not computed), 1 (computing) or 2.
	merged     []*node
	mergeState uint8
}

// maxYAMLDepth bounds collection nesting.
const maxYAMLDepth = 1000

// yamlError is a syntax error, rendered as "yaml: line N: message" like the
// YAML library it replaces.
type yamlError struct {
	line int
	msg  string
}

func (e *yamlError) Error() string {
	if e.line > 0 {
		return "yaml: line " + strconv.Itoa(e.line) + ": " + e.msg
	}
	return "yaml: " + e.msg
}

// yamlDecoder reads the documents of a stream one by one.
type yamlDecoder struct {
	src     []byte
	pos     int
	line    int // 1-based line of pos
	lineBeg int // offset of the start of the current line
	depth   int
	// inlineValue is set while reading a value on its key's line, where a
	// nested block mapping may not start.
	inlineValue bool
	anchors     map[string]*node
	// continuing is set while reading a continuation line of a flow plain
	// scalar, which may start with an indicator such as '%'.
	continuing bool
	started    bool // a document was read or "---" seen
	done       bool
}

func newYAMLDecoder(data []byte) *yamlDecoder {
	// A byte order mark may start the stream (editors on Windows write one).
	d := &yamlDecoder{src: data, line: 1}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		d.pos, d.lineBeg = 3, 3
	}
	return d
}

// bail aborts decoding with a syntax error; Decode recovers it.
type bail struct{ err *yamlError }

// scanErr reports a scanner-level problem on the current line.
func (d *yamlDecoder) scanErr(msg string) { d.scanErrAt(0, msg) }

// scanErrAt reports a scanner problem found while reading a token that
// started on ctxLine (0: the current line): an unterminated quoted scalar is
// reported where it opens, anything else where it was found.
func (d *yamlDecoder) scanErrAt(ctxLine int, msg string) {
	line := d.line
	if ctxLine > 0 {
		line = ctxLine
	}
	panic(bail{&yamlError{line: line, msg: msg}})
}

// syntaxErr reports a parser-level problem at the line of the token that
// does not fit (libyaml would name the line before the enclosing
// collection's start, which is rarely where the indentation went wrong), or
// at the last line with content when the stream ended early. ctxLine is
// unused but documents which collection was being read.
func (d *yamlDecoder) syntaxErr(ctxLine int, msg string) {
	_ = ctxLine
	line := d.line
	if d.pos >= len(d.src) {
		line = d.lastContentLine()
	}
	panic(bail{&yamlError{line: line, msg: msg}})
}

// lastContentLine is the 1-based line of the last non-blank character.
func (d *yamlDecoder) lastContentLine() int {
	end := len(d.src)
	for end > 0 && strings.IndexByte(" \t\r\n", d.src[end-1]) >= 0 {
		end--
	}
	return 1 + strings.Count(string(d.src[:end]), "\n")
}

// eofLine is libyaml's 0-based line of the end of the stream, which always
// starts a new line.
func (d *yamlDecoder) eofLine() int {
	n := strings.Count(string(d.src), "\n")
	if len(d.src) > 0 && d.src[len(d.src)-1] != '\n' {
		n++
	}
	return n
}

func (d *yamlDecoder) col() int { return d.pos - d.lineBeg } // 0-based

func (d *yamlDecoder) peek(off int) byte {
	if d.pos+off < len(d.src) {
		return d.src[d.pos+off]
	}
	return 0
}

func (d *yamlDecoder) eof() bool { return d.pos >= len(d.src) }

// blankAt reports whether offset i is a space, tab, line break or the end.
func (d *yamlDecoder) blankAt(i int) bool {
	if i >= len(d.src) {
		return true
	}
	c := d.src[i]
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

func (d *yamlDecoder) newline() {
	if d.peek(0) == '\r' {
		d.pos++
	}
	if d.peek(0) == '\n' {
		d.pos++
	}
	d.line++
	d.lineBeg = d.pos
}

func (d *yamlDecoder) isBreak() bool { c := d.peek(0); return c == '\n' || c == '\r' }

// skipInline skips spaces, tabs and a comment up to the line break.
func (d *yamlDecoder) skipInline() {
	for d.peek(0) == ' ' || d.peek(0) == '\t' {
		d.pos++
	}
	if d.peek(0) == '#' {
		for !d.eof() && !d.isBreak() {
			d.pos++
		}
	}
}

// skipBlank skips whitespace, comments and line breaks up to the next
// content; it reports whether a line break was crossed.
func (d *yamlDecoder) skipBlank() bool {
	crossed := false
	for {
		d.skipInline()
		if d.eof() || !d.isBreak() {
			return crossed
		}
		d.newline()
		crossed = true
	}
}

// checkIndent refuses a line of block structure whose indentation holds a
// tab, as libyaml does: YAML indents with spaces only, and a tab would make
// the nesting depend on the editor's tab width. d is at the line's content.
func (d *yamlDecoder) checkIndent() {
	if d.eof() || d.pos-d.lineBeg == 0 {
		return
	}
	if strings.IndexByte(string(d.src[d.lineBeg:d.pos]), '\t') >= 0 {
		d.scanErr("found a tab character that violates indentation (indent with spaces)")
	}
}

// atMarker reports whether a "---" or "..." document marker starts here.
func (d *yamlDecoder) atMarker() bool {
	if d.col() != 0 || d.pos+3 > len(d.src) {
		return false
	}
	s := string(d.src[d.pos : d.pos+3])
	return (s == "---" || s == "...") && d.blankAt(d.pos+3)
}

// Decode reads the next document into n; io.EOF when there is none. It
// never panics.
func (d *yamlDecoder) Decode(n *node) (err error) {
	defer func() {
		if v := recover(); v != nil {
			b, ok := v.(bail)
			if !ok {
				panic(v)
			}
			d.done = true
			err = b.err
		}
	}()
	if d.done {
		return io.EOF
	}
	d.anchors = map[string]*node{}
	d.depth = 0
	for {
		d.skipBlank()
		if d.col() == 0 && d.peek(0) == '%' { // a directive: ignored
			for !d.eof() && !d.isBreak() {
				d.pos++
			}
			continue
		}
		if d.atMarker() && d.peek(0) == '.' {
			d.pos += 3
			continue
		}
		break
	}
	explicit := false
	line, col := d.line, d.col()+1
	if d.atMarker() { // "---"
		explicit = true
		d.pos += 3
		d.skipInline()
	} else if d.eof() {
		d.done = true
		return io.EOF
	}
	d.started = true
	*n = node{Kind: documentNode, Line: line, Column: col}
	var body *node
	if !explicit || !d.eof() && !d.isBreak() {
		body = d.blockNode(-1, false)
	} else {
		d.skipBlank()
		if d.eof() {
			body = &node{Kind: scalarNode, Tag: tagNull, Line: d.eofLine() + 1, Column: 1}
		} else if d.atMarker() {
			body = d.emptyScalar()
		} else {
			body = d.blockNode(-1, false)
		}
	}
	n.Content = []*node{body}
	d.skipBlank()
	switch {
	case d.eof():
		d.done = true
	case d.atMarker() && d.peek(0) == '.':
		d.pos += 3
		d.skipInline()
	case d.atMarker():
	default:
		d.syntaxErr(0, "did not find expected <document start>")
	}
	return nil
}

// emptyScalar is the null a missing value stands for.
func (d *yamlDecoder) emptyScalar() *node {
	return &node{Kind: scalarNode, Tag: tagNull, Line: d.line, Column: d.col() + 1}
}

// props reads an optional anchor and tag before a node.
type props struct {
	anchor, tag string
	line, col   int
	set         bool
}

func (d *yamlDecoder) readProps() props {
	p := props{line: d.line, col: d.col() + 1}
	for {
		switch d.peek(0) {
		case '&':
			d.pos++
			p.anchor = d.readName()
			if p.anchor == "" {
				d.scanErr("did not find expected alphabetic or numeric character")
			}
		case '!':
			p.tag = d.readTag()
		default:
			return p
		}
		p.set = true
		for d.peek(0) == ' ' || d.peek(0) == '\t' {
			d.pos++
		}
	}
}

// readName reads an anchor or alias name.
func (d *yamlDecoder) readName() string {
	start := d.pos
	for !d.blankAt(d.pos) && !strings.ContainsRune(",[]{}", rune(d.src[d.pos])) {
		d.pos++
	}
	return string(d.src[start:d.pos])
}

// readTag reads a tag and returns it in short form ("!!str").
func (d *yamlDecoder) readTag() string {
	start := d.pos
	if d.peek(1) == '<' {
		end := strings.IndexByte(string(d.src[d.pos:]), '>')
		if end < 0 {
			d.scanErr("did not find the expected '>'")
		}
		d.pos += end + 1
		t := string(d.src[start+2 : d.pos-1])
		if s, ok := strings.CutPrefix(t, "tag:yaml.org,2002:"); ok {
			return "!!" + s
		}
		return t
	}
	for !d.blankAt(d.pos) && !strings.ContainsRune(",[]{}", rune(d.src[d.pos])) {
		d.pos++
	}
	return string(d.src[start:d.pos])
}

// finish applies properties to a parsed node and registers its anchor.
func (d *yamlDecoder) finish(n *node, p props) *node {
	if p.set {
		n.Line, n.Column = p.line, p.col
	}
	if p.tag != "" && p.tag != "!" {
		n.Tag = p.tag
	}
	if p.anchor != "" {
		d.anchors[p.anchor] = n
	}
	return n
}

func (d *yamlDecoder) enter() {
	d.depth++
	if d.depth > maxYAMLDepth {
		d.scanErr("exceeded max depth of " + strconv.Itoa(maxYAMLDepth))
	}
}

// blockNode reads the node at the current position, which is the first
// content of that node. parent is the indentation (0-based column) of the
// enclosing block collection, -1 at the top. inSeq is set for the item of a
// block sequence written on the "- " line.
func (d *yamlDecoder) blockNode(parent int, inSeq bool) *node {
	d.enter()
	defer func() { d.depth-- }()
	inline := d.inlineValue
	d.inlineValue = false
	p := d.readProps()
	if p.set && (d.eof() || d.isBreak() || d.peek(0) == '#') {
		// Properties alone on their line: the node follows.
		d.skipBlank()
		if d.eof() || d.col() <= parent && !(d.col() == parent && d.isSeqEntry() && !inSeq) || d.atMarker() {
			return d.finish(d.emptyScalar(), p)
		}
		return d.finish(d.blockNode(parent, inSeq), p)
	}
	col := d.col()
	switch c := d.peek(0); {
	case c == '?' && d.blankAt(d.pos+1):
		d.scanErr("explicit mapping keys (\"? key\") are not supported: write \"key: value\"")
	case c == '-' && d.blankAt(d.pos+1):
		if p.set {
			d.scanErr("block sequence entries are not allowed in this context")
		}
		return d.blockSequence(col)
	case c == '|' || c == '>':
		return d.finish(d.blockScalar(parent, c), p)
	case c == '*' && !p.set:
		n := d.alias()
		if d.mappingColonFollows() {
			return d.blockMapping(col, n, p)
		}
		return n
	}
	if key, ok := d.implicitKey(); ok {
		if inline && (!p.set || p.line == d.line) {
			d.scanErr("mapping values are not allowed in this context")
		}
		if p.set && p.line == d.line {
			// "&a key: v": the properties belong to the key.
			key = d.finish(key, p)
			return d.blockMapping(col, key, props{})
		}
		return d.blockMapping(col, key, p)
	}
	var n *node
	switch d.peek(0) {
	case '[', '{':
		n = d.flowCollection()
	case '\'', '"':
		n = d.quoted(parent)
	default:
		n = d.plain(parent, false)
	}
	n = d.finish(n, p)
	d.skipInline()
	if d.peek(0) == ':' && d.blankAt(d.pos+1) {
		d.scanErr("mapping values are not allowed in this context")
	}
	return n
}

func (d *yamlDecoder) isSeqEntry() bool { return d.peek(0) == '-' && d.blankAt(d.pos+1) }

// mappingColonFollows skips blanks on the line and reports whether a ':'
// value indicator is next.
func (d *yamlDecoder) mappingColonFollows() bool {
	i := d.pos
	for i < len(d.src) && (d.src[i] == ' ' || d.src[i] == '\t') {
		i++
	}
	return i < len(d.src) && d.src[i] == ':' && d.blankAt(i+1)
}

// implicitKey tries to read "key:" at the current position; on failure the
// position is unchanged.
func (d *yamlDecoder) implicitKey() (*node, bool) {
	save, saveLine, saveBeg := d.pos, d.line, d.lineBeg
	ok := func() (ok bool) {
		defer func() {
			if v := recover(); v != nil {
				if _, isBail := v.(bail); !isBail {
					panic(v)
				}
				ok = false
			}
		}()
		switch d.peek(0) {
		case '[', '{':
			d.flowCollection()
		case '\'', '"':
			d.quoted(-1)
		case '?', '|', '>', '#', '%', '@', '`':
			return false
		default:
			d.plain(-1, true)
		}
		return d.line == saveLine && d.mappingColonFollows()
	}()
	d.pos, d.line, d.lineBeg = save, saveLine, saveBeg
	if !ok {
		return nil, false
	}
	var k *node
	switch d.peek(0) {
	case '[', '{':
		k = d.flowCollection()
	case '\'', '"':
		k = d.quoted(-1)
	default:
		k = d.plain(-1, true)
	}
	return k, true
}

// blockMapping reads a block mapping at indentation ind whose first key
// has been read.
func (d *yamlDecoder) blockMapping(ind int, key *node, p props) *node {
	m := &node{Kind: mappingNode, Tag: "!!map", Line: key.Line, Column: key.Column}
	for {
		for d.peek(0) == ' ' || d.peek(0) == '\t' {
			d.pos++
		}
		if d.peek(0) != ':' {
			d.syntaxErr(m.Line, "could not find expected ':'")
		}
		d.pos++
		m.Content = append(m.Content, key, d.mappingValue(ind))
		if d.skipBlank() {
			d.checkIndent()
		}
		if d.eof() || d.atMarker() || d.col() < ind {
			break
		}
		if d.col() > ind || d.isSeqEntry() {
			d.syntaxErr(m.Line, "did not find expected key")
		}
		if d.peek(0) == '*' {
			key = d.alias()
			continue
		}
		kp := d.readProps()
		k, ok := d.implicitKey()
		if !ok {
			d.syntaxErr(m.Line, "could not find expected ':'")
		}
		key = d.finish(k, kp)
	}
	return d.finish(m, p)
}

// mappingValue reads the value after "key:" of a mapping at ind.
func (d *yamlDecoder) mappingValue(ind int) *node {
	d.skipInline()
	if !d.eof() && !d.isBreak() {
		if d.isSeqEntry() {
			d.scanErr("block sequence entries are not allowed in this context")
		}
		d.inlineValue = true
		return d.blockNode(ind, false)
	}
	here := d.emptyScalar()
	save, saveLine, saveBeg := d.pos, d.line, d.lineBeg
	d.skipBlank()
	d.checkIndent()
	if !d.eof() && !d.atMarker() && (d.col() > ind || d.col() == ind && d.isSeqEntry()) {
		return d.blockNode(ind, false)
	}
	d.pos, d.line, d.lineBeg = save, saveLine, saveBeg
	return here
}

// blockSequence reads "- item" entries at indentation ind.
func (d *yamlDecoder) blockSequence(ind int) *node {
	s := &node{Kind: sequenceNode, Tag: "!!seq", Line: d.line, Column: ind + 1}
	for {
		d.pos++ // the '-'
		d.skipInline()
		var item *node
		if !d.eof() && !d.isBreak() {
			item = d.blockNode(ind, true)
		} else {
			item = d.emptyScalar()
			save, saveLine, saveBeg := d.pos, d.line, d.lineBeg
			d.skipBlank()
			if !d.eof() && !d.atMarker() && d.col() > ind {
				item = d.blockNode(ind, true)
			} else {
				d.pos, d.line, d.lineBeg = save, saveLine, saveBeg
			}
		}
		s.Content = append(s.Content, item)
		if d.skipBlank() {
			d.checkIndent()
		}
		if d.eof() || d.atMarker() || d.col() < ind {
			return s
		}
		if d.col() > ind || !d.isSeqEntry() {
			if d.col() == ind {
				return s // a mapping key after "key:\n- a" at the same indent
			}
			d.syntaxErr(s.Line, "did not find expected '-' indicator")
		}
	}
}

// alias reads *name.
func (d *yamlDecoder) alias() *node {
	n := &node{Kind: aliasNode, Line: d.line, Column: d.col() + 1}
	d.pos++
	n.Value = d.readName()
	target, ok := d.anchors[n.Value]
	if !ok {
		panic(bail{&yamlError{msg: "unknown anchor '" + n.Value + "' referenced"}})
	}
	n.Alias = target
	return n
}

// flowCollection reads [..] or {..}, which may span lines.
func (d *yamlDecoder) flowCollection() *node {
	d.enter()
	defer func() { d.depth-- }()
	open := d.peek(0)
	n := &node{Kind: sequenceNode, Tag: "!!seq", Style: flowStyle, Line: d.line, Column: d.col() + 1}
	closer := byte(']')
	if open == '{' {
		n.Kind, n.Tag, closer = mappingNode, "!!map", '}'
	}
	d.pos++
	for {
		d.skipBlank()
		if d.eof() {
			d.syntaxErr(0, "did not find expected node content")
		}
		if d.peek(0) == closer {
			d.pos++
			return n
		}
		k := d.flowNode()
		d.skipBlank()
		if d.peek(0) == ':' {
			d.pos++
			d.skipBlank()
			var v *node
			if c := d.peek(0); c == ',' || c == closer {
				v = d.emptyScalar()
			} else {
				v = d.flowNode()
			}
			if n.Kind == mappingNode {
				n.Content = append(n.Content, k, v)
			} else {
				pair := &node{Kind: mappingNode, Tag: "!!map", Style: flowStyle, Line: k.Line, Column: k.Column, Content: []*node{k, v}}
				n.Content = append(n.Content, pair)
			}
		} else if n.Kind == mappingNode {
			n.Content = append(n.Content, k, &node{Kind: scalarNode, Tag: tagNull, Line: d.line, Column: d.col() + 1})
		} else {
			n.Content = append(n.Content, k)
		}
		d.skipBlank()
		switch d.peek(0) {
		case ',':
			d.pos++
		case closer:
		default:
			d.syntaxErr(n.Line, "did not find expected ',' or '"+string(closer)+"'")
		}
	}
}

// flowNode reads one node inside a flow collection.
func (d *yamlDecoder) flowNode() *node {
	p := d.readProps()
	d.skipBlank()
	var n *node
	switch c := d.peek(0); c {
	case '[', '{':
		n = d.flowCollection()
	case '\'', '"':
		n = d.quoted(-1)
	case '*':
		return d.alias()
	case ',', ']', '}', ':':
		n = d.emptyScalar()
	case 0:
		d.syntaxErr(0, "did not find expected node content")
	default:
		if c == '-' && d.blankAt(d.pos+1) || c == '|' || c == '>' || c == '%' || c == '@' || c == '`' {
			d.scanErr("found character that cannot start any token")
		}
		n = d.plain(-1, true)
		n.Style = plainStyle
		d.flowPlainRest(n)
	}
	return d.finish(n, p)
}

// flowPlainRest continues a plain scalar of a flow collection over line
// breaks ("[a\n b]" is ["a b"]).
func (d *yamlDecoder) flowPlainRest(n *node) {
	for {
		save, saveLine, saveBeg := d.pos, d.line, d.lineBeg
		if !d.skipBlank() || d.eof() || strings.IndexByte(",[]{}:#", d.peek(0)) >= 0 {
			d.pos, d.line, d.lineBeg = save, saveLine, saveBeg
			return
		}
		d.continuing = true
		more := d.plain(-1, true)
		d.continuing = false
		n.Value += " " + more.Value
		n.Tag, _ = resolvePlain(n.Value)
	}
}

// plain reads a plain scalar. Continuation lines (block context, not a
// key) must be indented more than parent. inFlow also stops at ",[]{}".
func (d *yamlDecoder) plain(parent int, inFlow bool) *node {
	n := &node{Kind: scalarNode, Line: d.line, Column: d.col() + 1}
	c := d.peek(0)
	if strings.IndexByte("]}", c) >= 0 || (c == ',' && inFlow) {
		d.syntaxErr(0, "did not find expected node content")
	}
	if c == '#' || !d.continuing && (c == '@' || c == '`' || c == '%' || c == '\t') {
		d.scanErr("found character that cannot start any token")
	}
	var text strings.Builder
	for {
		start := d.pos
		for !d.eof() && !d.isBreak() {
			ch := d.src[d.pos]
			if ch == ':' && (d.blankAt(d.pos+1) || inFlow && strings.IndexByte(",[]{}", d.peek(1)) >= 0) {
				break
			}
			if ch == '#' && d.pos > start && (d.src[d.pos-1] == ' ' || d.src[d.pos-1] == '\t') {
				break
			}
			if inFlow && strings.IndexByte(",[]{}", ch) >= 0 {
				break
			}
			d.pos++
		}
		text.WriteString(strings.TrimRight(string(d.src[start:d.pos]), " \t"))
		if inFlow || parent < -1 || d.eof() || !d.isBreak() {
			break
		}
		// A continuation line?
		save, saveLine, saveBeg := d.pos, d.line, d.lineBeg
		breaks := 0
		for {
			d.newline()
			breaks++
			for d.peek(0) == ' ' || d.peek(0) == '\t' {
				d.pos++
			}
			if !d.isBreak() {
				break
			}
		}
		if d.eof() || d.col() <= parent || d.peek(0) == '#' || d.atMarker() {
			d.pos, d.line, d.lineBeg = save, saveLine, saveBeg
			break
		}
		if breaks == 1 {
			text.WriteByte(' ')
		} else {
			text.WriteString(strings.Repeat("\n", breaks-1))
		}
	}
	n.Value = text.String()
	n.Tag, _ = resolvePlain(n.Value)
	if n.Value == "<<" {
		n.Tag = "!!merge"
	}
	return n
}

// quoted reads a single- or double-quoted scalar, which may span lines.
func (d *yamlDecoder) quoted(parent int) *node {
	q := d.peek(0)
	n := &node{Kind: scalarNode, Tag: tagStr, Style: singleQuotedStyle, Line: d.line, Column: d.col() + 1}
	if q == '"' {
		n.Style = doubleQuotedStyle
	}
	d.pos++
	var b strings.Builder
	for {
		if d.eof() {
			d.scanErrAt(n.Line, "found unexpected end of stream")
		}
		c := d.src[d.pos]
		switch {
		case c == q && q == '\'' && d.peek(1) == '\'':
			b.WriteByte('\'')
			d.pos += 2
		case c == q:
			d.pos++
			n.Value = b.String()
			return n
		case c == '\\' && q == '"':
			d.escape(&b)
		case c == '\n' || c == '\r':
			// Fold: trailing blanks go, one break is a space, more are
			// kept as newlines.
			s := strings.TrimRight(b.String(), " \t")
			b.Reset()
			b.WriteString(s)
			breaks := 0
			for d.isBreak() {
				d.newline()
				breaks++
				for d.peek(0) == ' ' || d.peek(0) == '\t' {
					d.pos++
				}
			}
			if d.atMarker() {
				d.scanErr("found unexpected document indicator")
			}
			if breaks == 1 {
				b.WriteByte(' ')
			} else {
				b.WriteString(strings.Repeat("\n", breaks-1))
			}
		default:
			b.WriteByte(c)
			d.pos++
		}
	}
}

// escape reads one backslash escape of a double-quoted scalar.
func (d *yamlDecoder) escape(b *strings.Builder) {
	d.pos++
	c := d.peek(0)
	// The one-character escapes: each byte of from stands for the rune at
	// the same index of to.
	const from = "0abt\tnvfre \"/\\N_LP"
	to := [...]rune{0, '\a', '\b', '\t', '\t', '\n', '\v', '\f', '\r', 0x1b, ' ', '"', '/', '\\', 0x85, 0xa0, 0x2028, 0x2029}
	if i := strings.IndexByte(from, c); i >= 0 && c != 0 {
		b.WriteRune(to[i])
		d.pos++
		return
	}
	width := 0
	switch c {
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	}
	if c == '\n' || c == '\r' { // an escaped line break joins the lines
		d.newline()
		for d.peek(0) == ' ' || d.peek(0) == '\t' {
			d.pos++
		}
		return
	}
	if width == 0 || d.pos+1+width > len(d.src) {
		d.scanErr("found unknown escape character")
	}
	v, err := strconv.ParseUint(string(d.src[d.pos+1:d.pos+1+width]), 16, 32)
	if err != nil {
		d.scanErr("did not find expected hexdecimal number")
	}
	if (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF {
		d.scanErr("found invalid Unicode character escape code")
	}
	b.WriteRune(rune(v))
	d.pos += 1 + width
}

// blockScalar reads a | or > scalar whose content is indented more than
// parent.
func (d *yamlDecoder) blockScalar(parent int, kind byte) *node {
	n := &node{Kind: scalarNode, Tag: tagStr, Style: literalStyle, Line: d.line, Column: d.col() + 1}
	if kind == '>' {
		n.Style = foldedStyle
	}
	d.pos++
	chomp, explicit := byte(0), 0
	for i := 0; i < 2; i++ {
		switch c := d.peek(0); {
		case (c == '+' || c == '-') && chomp == 0:
			chomp = c
			d.pos++
		case c >= '1' && c <= '9' && explicit == 0:
			explicit = int(c - '0')
			d.pos++
		}
	}
	if !d.blankAt(d.pos) {
		d.scanErr("did not find expected comment or line break")
	}
	d.skipInline()
	if !d.eof() && !d.isBreak() {
		d.scanErr("did not find expected comment or line break")
	}
	// indent is the content's indentation: parent's plus the explicit
	// indicator, or that of the first non-empty line.
	indent := 0
	if explicit > 0 {
		indent = max(parent, 0) + explicit
	}
	var lines []string
	// lastBroken: the last content line ends with a line break, which clip
	// and keep chomping preserve.
	lastBroken := false
	for !d.eof() {
		// d is at a line break: look at the next line.
		save, saveLine, saveBeg := d.pos, d.line, d.lineBeg
		d.newline()
		sp := 0
		for d.peek(sp) == ' ' {
			sp++
		}
		lineEnd := d.pos + sp
		for lineEnd < len(d.src) && d.src[lineEnd] != '\n' && d.src[lineEnd] != '\r' {
			lineEnd++
		}
		empty := lineEnd == d.pos+sp
		if indent == 0 && !empty {
			if sp <= parent {
				d.pos, d.line, d.lineBeg = save, saveLine, saveBeg
				break
			}
			indent = sp
		}
		if !empty && (sp < indent || d.atMarker()) {
			d.pos, d.line, d.lineBeg = save, saveLine, saveBeg
			break
		}
		if empty && d.pos+sp >= len(d.src) && sp == 0 && d.pos >= len(d.src) {
			break // the final line break of the stream
		}
		text := ""
		if !empty || (indent > 0 && sp > indent) {
			text = string(d.src[d.pos+min(sp, max(indent, 0)) : lineEnd])
		}
		d.pos = lineEnd
		if empty && text == "" {
			lines = append(lines, "")
			continue
		}
		lastBroken = lineEnd < len(d.src)
		lines = append(lines, text)
	}
	// lines holds the content lines and the empty lines among and after
	// them; chomping decides what happens to the trailing ones.
	content := lines
	tailEmpty := 0
	for len(content) > 0 && content[len(content)-1] == "" {
		content = content[:len(content)-1]
		tailEmpty++
	}
	var body string
	if kind == '|' {
		body = strings.Join(content, "\n")
	} else {
		body = foldLines(content)
	}
	hasContent := len(content) > 0
	switch chomp {
	case '-':
	case '+':
		if hasContent && !lastBroken && tailEmpty == 0 {
		} else if hasContent || tailEmpty > 0 {
			body += "\n" + strings.Repeat("\n", tailEmpty)
			if !hasContent {
				body = strings.Repeat("\n", tailEmpty)
			}
		}
	default:
		if hasContent && lastBroken {
			body += "\n"
		}
	}
	n.Value = body
	return n
}

// foldLines joins the lines of a > scalar: a break between two normal lines
// becomes a space, empty lines become newlines, and more-indented lines keep
// their breaks.
func foldLines(lines []string) string {
	var b strings.Builder
	prevMore := false
	for i, l := range lines {
		more := l != "" && (l[0] == ' ' || l[0] == '\t')
		if i == 0 && l == "" {
			b.WriteByte('\n') // leading empty lines are kept
		}
		if i > 0 {
			prev := lines[i-1]
			switch {
			case l == "":
				b.WriteByte('\n')
			case prev == "":
				if prevMore || more {
					b.WriteByte('\n')
				}
			case prevMore || more:
				b.WriteByte('\n')
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
		if l != "" {
			prevMore = more
		}
	}
	return b.String()
}

// resolvePlain gives a plain scalar its core-schema tag as yaml.v3 does:
// null, bool, int (with 0x, 0o, 0b and 1.1-style 0 octal prefixes and
// underscores), float (including .inf and .nan), timestamp, else str.
func resolvePlain(s string) (string, bool) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return tagNull, true
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return tagBool, true
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return tagFloat, true
	}
	c := s[0]
	switch {
	case c == '.':
		if !utf8.ValidString(s) {
			return tagStr, true
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return tagFloat, true
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if isTimestamp(s) {
			return "!!timestamp", true
		}
		plain := strings.ReplaceAll(s, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return tagInt, true
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return tagInt, true
		}
		if isYAMLFloat(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return tagFloat, true
			}
		}
	}
	return tagStr, true
}

// isYAMLFloat matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isYAMLFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isTimestamp reports whether s is a YAML timestamp in one of the forms
// yaml.v3 accepts ("2001-12-14", "2001-12-14T21:59:43.10Z", ...).
func isTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
