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
	"k8s.io/apimachinery/pkg/util/intstr"
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

// decodeKube decodes a Kubernetes document whose kind and apiVersion have
// been read. It returns nil after reporting the problems it found.
func (r *docReader) decodeKube(root *node, kindNode, apiNode *node) *Object {
	var kk *kubeKind
	for i := range kubeKinds {
		if kubeKinds[i].name == kindNode.Value {
			kk = &kubeKinds[i]
		}
	}
	if kk == nil {
		r.errorf(kindNode, "kind", "unsupported kind "+strconv.Quote(kindNode.Value)+": supported kinds are "+supportedKinds)
		return nil
	}
	if apiNode.Value != kk.apiVersion {
		r.errorf(apiNode, "apiVersion", "invalid value "+strconv.Quote(apiNode.Value)+": kind "+kk.name+" must have apiVersion "+strconv.Quote(kk.apiVersion))
		return nil
	}
	obj := kk.newObj()
	before := r.p.count()
	r.check(root, reflect.TypeOf(obj).Elem(), "")
	if r.p.count() != before {
		return nil
	}
	var buf bytes.Buffer
	writeJSON(&buf, root, 0)
	if err := json.Unmarshal(buf.Bytes(), obj); err != nil {
		// The walk above accepts only what the typed decode accepts; this is
		// a safety net that still names the document.
		r.errorf(root, "", "cannot decode "+kk.name+": "+err.Error())
		return nil
	}
	if m, ok := obj.(interface {
		GetNamespace() string
		SetNamespace(string)
	}); ok && m.GetNamespace() == "" {
		m.SetNamespace("default")
	}
	return &Object{Obj: obj, Doc: r.doc, Line: root.Line + r.lineOffset}
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	intOrStringType = reflect.TypeFor[intstr.IntOrString]()
)

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
				r.check(f.value, fields.types[name], join(path, name))
			}
		}
	case reflect.Map:
		m, ok := r.mapping(n, path, nil)
		if !ok {
			return
		}
		for _, k := range sortedKeys(m) {
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
	if t == intOrStringType {
		r.checkIntOrPercent(n, v.Interface().(*intstr.IntOrString), path)
	}
}

// checkIntOrPercent checks maxSurge and maxUnavailable, which must be an
// integer or a percentage: "3x" is refused here, with its line, rather than
// later by the API server.
func (r *docReader) checkIntOrPercent(n *node, v *intstr.IntOrString, path string) {
	if !strings.HasSuffix(path, ".maxSurge") && !strings.HasSuffix(path, ".maxUnavailable") {
		return
	}
	if v.Type != intstr.String {
		return
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if _, err := strconv.Atoi(s); ok && err == nil {
		return
	}
	r.errorf(n, path, "invalid value "+strconv.Quote(v.StrVal)+`: must be an integer or a percentage like "25%"`)
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
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, resolve(n.Content[i]).Value)
			b.WriteByte(':')
			writeJSON(b, n.Content[i+1], depth+1)
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
