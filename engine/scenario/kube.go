package scenario

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// kubeKind is one Kubernetes kind a scenario file may hold.
type kubeKind struct {
	kind       Kind
	apiVersion string
	name       string
	newObj     func() runtime.Object
}

// kubeKinds are the supported Kubernetes kinds, in the order messages list
// them.
var kubeKinds = []kubeKind{
	{KindDeployment, "apps/v1", "Deployment", func() runtime.Object { return &appsv1.Deployment{} }},
	{KindReplicaSet, "apps/v1", "ReplicaSet", func() runtime.Object { return &appsv1.ReplicaSet{} }},
	{KindPod, "v1", "Pod", func() runtime.Object { return &corev1.Pod{} }},
}

// supportedKinds is the list of kinds given in messages.
const supportedKinds = "Deployment (apps/v1), ReplicaSet (apps/v1), Pod (v1) and Scenario (" + scenarioAPIVersion + ")"

// decodeObjects decodes a Kubernetes document whose kind and apiVersion have
// been read and appends what it holds to objs: the object itself for a kind
// the simulation runs, nothing but a notice for any other kind, and the
// items of a v1 List (`kubectl get -o yaml` output) one by one. itemPath is
// the field path of a List item ("" for a document). It returns how many
// documents or items were ignored.
func (r *docReader) decodeObjects(body, kindNode, apiNode *node, itemPath string, objs *[]Object) int {
	if kindNode.Value == "List" && apiNode.Value == "v1" && itemPath == "" {
		return r.decodeList(body, objs)
	}
	// A simulated kind, or one so close to it that it is surely a typo,
	// is decoded (and reported); any other kind is listed as ignored.
	if kubeKindByName(kindNode.Value) != nil || suggest(kindNode.Value, kubeKindNames()) != "" {
		if obj := r.decodeKube(body, kindNode, apiNode, itemPath); obj != nil {
			*objs = append(*objs, *obj)
		}
		return 0
	}
	name := ""
	if md, ok := lookup(body, "metadata"); ok {
		if n, ok := lookup(md, "name"); ok && resolve(n).Kind == scalarNode {
			name = resolve(n).Value
		}
	}
	msg := "ignored (not simulated): Rollout Lab simulates Deployments, ReplicaSets and Pods"
	if kindNode.Value == "HorizontalPodAutoscaler" {
		msg = "ignored (not simulated): nothing scales the Deployments here but their spec.replicas and the timeline's scale actions"
	}
	r.p.notify(Notice{Doc: r.doc, Line: resolve(body).Line + r.lineOffset, Kind: kindNode.Value, Name: name, Code: NoticeIgnored, Message: msg})
	return 1
}

// decodeList unwraps a v1 List: each item is read as a document of its own
// (errors and notices name the item's line).
func (r *docReader) decodeList(body *node, objs *[]Object) int {
	m, ok := r.mapping(body, "", []string{"apiVersion", "kind", "metadata", "items"})
	if !ok {
		return 0
	}
	f, ok := m["items"]
	if !ok {
		return 0
	}
	items := resolve(f.value)
	if items.Kind == scalarNode && items.Tag == tagNull {
		return 0
	}
	if items.Kind != sequenceNode {
		r.errorf(items, "items", "expected a list of objects, got "+describe(items))
		return 0
	}
	ignored := 0
	for i, item := range items.Content {
		path := index("items", i)
		sub := &docReader{p: r.p, doc: r.doc, lineOffset: r.lineOffset}
		kindNode, apiNode, ok := sub.typeOfAt(item, path)
		if !ok {
			continue
		}
		if kindNode.Value == scenarioKind || kindNode.Value == "List" {
			sub.errorf(kindNode, join(path, "kind"), "a List may hold only Kubernetes objects")
			continue
		}
		ignored += sub.decodeObjects(item, kindNode, apiNode, path, objs)
	}
	return ignored
}

// lookup returns the value of key in mapping n.
func lookup(n *node, key string) (*node, bool) {
	n = resolve(n)
	if n == nil || n.Kind != mappingNode {
		return nil, false
	}
	c := mergedContent(n)
	for i := 0; i+1 < len(c); i += 2 {
		if k := resolve(c[i]); k.Kind == scalarNode && k.Value == key {
			return c[i+1], true
		}
	}
	return nil, false
}

func kubeKindByName(name string) *kubeKind {
	for i := range kubeKinds {
		if kubeKinds[i].name == name {
			return &kubeKinds[i]
		}
	}
	return nil
}

func kubeKindNames() []string {
	out := make([]string, len(kubeKinds))
	for i, k := range kubeKinds {
		out[i] = k.name
	}
	return out
}

// kubeKindName is the Kubernetes kind of k ("Deployment").
func kubeKindName(k Kind) string {
	if int(k) >= 1 && int(k) <= len(kubeKinds) {
		return kubeKinds[k-1].name
	}
	return ""
}

// kubectlName renders an object as kubectl's messages do:
// "deployment.apps/web", "pod/web-1".
func kubectlName(o Object) string {
	res := o.Kind().String()
	if o.Kind() != KindPod {
		res += ".apps"
	}
	return res + "/" + objectName(o)
}

// objectName and objectNamespace read an object's metadata.
func objectName(o Object) string {
	if m, ok := o.Obj.(interface{ GetName() string }); ok {
		return m.GetName()
	}
	return ""
}

func objectNamespace(o Object) string {
	if m, ok := o.Obj.(interface{ GetNamespace() string }); ok {
		return m.GetNamespace()
	}
	return ""
}

// decodeKube decodes a Kubernetes document of a simulated kind whose kind
// and apiVersion have been read. It returns nil after reporting the problems
// it found.
// itemPath prefixes field paths in messages (a List item); "" for a
// document.
func (r *docReader) decodeKube(root *node, kindNode, apiNode *node, itemPath string) *Object {
	kk := kubeKindByName(kindNode.Value)
	if kk == nil {
		r.errorf(kindNode, join(itemPath, "kind"), "unsupported kind "+strconv.Quote(kindNode.Value)+` (did you mean "`+suggest(kindNode.Value, kubeKindNames())+`"?)`)
		return nil
	}
	if apiNode.Value != kk.apiVersion {
		r.errorf(apiNode, join(itemPath, "apiVersion"), "invalid value "+strconv.Quote(apiNode.Value)+": kind "+kk.name+" must have apiVersion "+strconv.Quote(kk.apiVersion))
		return nil
	}
	obj := kk.newObj()
	before := r.p.count()
	r.lines = map[string]int{"": resolve(root).Line + r.lineOffset}
	r.check(root, reflect.TypeOf(obj).Elem(), itemPath)
	lines := r.lines
	r.lines = nil
	if r.p.count() != before {
		return nil
	}
	if itemPath != "" { // the lines were recorded under the item's path
		trimmed := make(map[string]int, len(lines))
		for k, v := range lines {
			if rest, ok := strings.CutPrefix(k, itemPath+"."); ok {
				trimmed[rest] = v
			} else if k == itemPath || k == "" {
				trimmed[""] = v
			}
		}
		lines = trimmed
	}
	var buf bytes.Buffer
	writeJSON(&buf, root, 0)
	if err := json.Unmarshal(buf.Bytes(), obj); err != nil {
		// The walk above accepts only what the typed decode accepts; this is
		// a safety net that still names the document.
		r.errorf(root, itemPath, "cannot decode "+kk.name+": "+err.Error())
		return nil
	}
	if m, ok := obj.(interface {
		GetNamespace() string
		SetNamespace(string)
	}); ok && m.GetNamespace() == "" {
		m.SetNamespace("default")
	}
	return &Object{Obj: obj, Doc: r.doc, Line: resolve(root).Line + r.lineOffset, Lines: lines}
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// check walks node n against Go type t (as encoding/json with case-sensitive
// names and unknown fields refused would decode it) and reports every
// unknown field and every value of the wrong type at its own line.
func (r *docReader) check(n *node, t reflect.Type, path string) {
	n = resolve(n)
	if n == nil || !r.visit() {
		if n != nil && r.visits == maxNodeVisits+1 {
			r.errorf(n, path, "document is too large or nests aliases too deeply")
		}
		return
	}
	if n.Kind == scalarNode && n.Tag == tagNull {
		return // null leaves any field at its zero value
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		r.checkCustom(n, t, path)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := structFields(t)
		m, ok := r.mapping(n, path, fields.names)
		if !ok {
			return
		}
		for _, name := range fields.names {
			if f, ok := m[name]; ok {
				r.noteLine(join(path, name), f.key)
				r.check(f.value, fields.types[name], join(path, name))
			}
		}
	case reflect.Map:
		m, ok := r.mapping(n, path, nil)
		if !ok {
			return
		}
		for _, k := range sortedKeys(m) {
			r.noteLine(path+"["+k+"]", m[k].key)
			r.check(m[k].value, t.Elem(), join(path, k))
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			r.checkScalar(n, path, "a base64 string", tagStr)
			return
		}
		if n.Kind != sequenceNode {
			r.errorf(n, path, "expected a list, got "+describe(n))
			return
		}
		for i, c := range n.Content {
			r.noteLine(index(path, i), resolve(c))
			r.check(c, t.Elem(), index(path, i))
		}
	case reflect.String:
		r.checkScalar(n, path, "a string", tagStr, "!!timestamp", "!!binary")
	case reflect.Bool:
		r.checkScalar(n, path, "true or false", tagBool)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if r.checkScalar(n, path, "an integer", tagInt) {
			if _, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, t.Bits()); err != nil {
				r.errorf(n, path, "invalid value "+n.Value+": out of range for a "+strconv.Itoa(t.Bits())+"-bit integer")
			}
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if r.checkScalar(n, path, "a non-negative integer", tagInt) {
			if _, err := strconv.ParseUint(strings.ReplaceAll(n.Value, "_", ""), 0, t.Bits()); err != nil {
				r.errorf(n, path, "invalid value "+n.Value+": must be a non-negative "+strconv.Itoa(t.Bits())+"-bit integer")
			}
		}
	case reflect.Float32, reflect.Float64:
		r.checkScalar(n, path, "a number", tagInt, tagFloat)
	case reflect.Interface:
		// any value
	default:
		r.errorf(n, path, "field of unsupported type "+t.String())
	}
}

// checkScalar reports n unless it is a scalar with one of the tags.
func (r *docReader) checkScalar(n *node, path, want string, tags ...string) bool {
	if n.Kind == scalarNode && contains(tags, n.Tag) {
		return true
	}
	msg := "expected " + want + ", got " + describe(n)
	if n.Kind == scalarNode && want == "a string" {
		msg = "invalid value " + n.Value + ": must be a string (quote it: " + strconv.Quote(n.Value) + ")"
	} else if n.Kind == scalarNode {
		msg = "invalid value " + valueText(n) + ": must be " + want
	}
	r.errorf(n, path, msg)
	return false
}

// checkCustom decodes a value whose type has its own JSON decoding
// (Quantity, IntOrString, Time) and reports its error at the node.
func (r *docReader) checkCustom(n *node, t reflect.Type, path string) {
	var buf bytes.Buffer
	writeJSON(&buf, n, 0)
	v := reflect.New(t)
	if err := json.Unmarshal(buf.Bytes(), v.Interface()); err != nil {
		msg := err.Error()
		if ute, ok := err.(*json.UnmarshalTypeError); ok {
			msg = "cannot be " + ute.Value
		}
		r.errorf(n, path, "invalid value "+valueText(n)+": "+msg)
		return
	}
}

// fieldTable is the JSON view of a struct type.
type fieldTable struct {
	// names are the JSON field names, sorted.
	names []string
	types map[string]reflect.Type
}

var fieldTables sync.Map // reflect.Type -> *fieldTable

// structFields returns the JSON fields of struct type t, embedded and
// ",inline" structs flattened.
func structFields(t reflect.Type) *fieldTable {
	if ft, ok := fieldTables.Load(t); ok {
		return ft.(*fieldTable)
	}
	ft := &fieldTable{types: map[string]reflect.Type{}}
	collectFields(t, ft, 0)
	for name := range ft.types {
		ft.names = append(ft.names, name)
	}
	sort.Strings(ft.names)
	fieldTables.Store(t, ft)
	return ft
}

func collectFields(t reflect.Type, ft *fieldTable, depth int) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft2 := f.Type
		for ft2.Kind() == reflect.Pointer {
			ft2 = ft2.Elem()
		}
		if name == "" && (f.Anonymous || strings.Contains(","+opts+",", ",inline,")) && ft2.Kind() == reflect.Struct && depth < 8 {
			collectFields(ft2, ft, depth+1)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := ft.types[name]; !dup {
			ft.types[name] = f.Type
		}
	}
}

// writeJSON renders node n as JSON: YAML integers, floats, booleans and nulls
// become JSON numbers, booleans and nulls, every other scalar a string.
// depth bounds alias recursion.
func writeJSON(b *bytes.Buffer, n *node, depth int) {
	n = resolve(n)
	if n == nil || depth > 200 {
		b.WriteString("null")
		return
	}
	switch n.Kind {
	case documentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return
		}
		writeJSON(b, n.Content[0], depth+1)
	case mappingNode:
		b.WriteByte('{')
		content := mergedContent(n)
		for i := 0; i+1 < len(content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, resolve(content[i]).Value)
			b.WriteByte(':')
			writeJSON(b, content[i+1], depth+1)
		}
		b.WriteByte('}')
	case sequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, c, depth+1)
		}
		b.WriteByte(']')
	default:
		writeScalar(b, n)
	}
}

func writeScalar(b *bytes.Buffer, n *node) {
	switch n.Tag {
	case tagNull:
		b.WriteString("null")
		return
	case tagBool:
		b.WriteString(strconv.FormatBool(strings.EqualFold(n.Value, "true")))
		return
	case tagInt:
		s := strings.ReplaceAll(n.Value, "_", "")
		if v, err := strconv.ParseInt(s, 0, 64); err == nil {
			b.WriteString(strconv.FormatInt(v, 10))
			return
		}
		if v, err := strconv.ParseUint(s, 0, 64); err == nil {
			b.WriteString(strconv.FormatUint(v, 10))
			return
		}
	case tagFloat:
		if v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			return
		}
	}
	writeString(b, n.Value)
}

func writeString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}
