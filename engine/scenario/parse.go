package scenario

import (
	"errors"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// scenarioAPIVersion and scenarioKind identify the Scenario document.
const (
	scenarioAPIVersion = "rolloutlab.dev/v1alpha1"
	scenarioKind       = "Scenario"
)

// parser holds the state of one Parse call.
type parser struct {
	file string
	// errs holds at most MaxErrors errors; truncated is set when more were
	// found.
	errs      ErrorList
	truncated bool
	// notices are the warnings of a successful parse, in file order.
	notices []Notice
	// nodesGiven is set when the Scenario names the cluster's nodes.
	nodesGiven bool
}

func (p *parser) add(e *Error) {
	if len(p.errs) >= MaxErrors {
		p.truncated = true
		return
	}
	p.errs = append(p.errs, e)
}

func (p *parser) count() int { return len(p.errs) }

// result returns nil, the single error, or the list.
func (p *parser) result() error {
	sort.SliceStable(p.errs, func(i, j int) bool {
		a, b := p.errs[i], p.errs[j]
		if a.Doc != b.Doc {
			return a.Doc < b.Doc
		}
		return a.Line < b.Line
	})
	if p.truncated {
		p.errs = append(p.errs, &Error{File: p.file, Message: "too many errors; only the first " + strconv.Itoa(MaxErrors) + " are shown"})
	}
	switch len(p.errs) {
	case 0:
		return nil
	case 1:
		return p.errs[0]
	}
	return p.errs
}

// Options change how Parse reads a file.
type Options struct {
	// SpecOnly drops what a cluster wrote into pasted `kubectl get -o yaml`
	// output (status, uid, resourceVersion, ownerReferences, the ReplicaSets
	// and Pods a controller manages...) so that the simulation starts from
	// the specs alone. A Scenario document's spec.specOnly: true does the
	// same.
	SpecOnly bool
}

// Parse reads the scenario file called name (used in messages only) from
// data with default options. On error the scenario is nil and the error is
// a *Error or an ErrorList.
func Parse(name string, data []byte) (*Scenario, error) { return ParseWith(name, data, Options{}) }

// ParseWith is Parse with options.
func ParseWith(name string, data []byte, opts Options) (*Scenario, error) {
	p := &parser{file: name}
	if len(data) > MaxFileBytes {
		p.add(&Error{File: name, Message: "file is " + strconv.Itoa(len(data)) + " bytes; the limit is 1 MiB (" + strconv.Itoa(MaxFileBytes) + " bytes)"})
		return nil, p.result()
	}
	s := &Scenario{Name: name, Cluster: DefaultCluster(), Limits: Limits{MaxPods: DefaultMaxPods, MaxSteps: DefaultMaxSteps, MaxTraceRecords: DefaultMaxTraceRecords}}
	var scenarioDoc, ignored int
	p.documents(data, func(doc int, body *node) {
		r := &docReader{p: p, doc: doc}
		kindNode, apiNode, ok := r.typeOf(body)
		if !ok {
			return
		}
		if kindNode.Value == scenarioKind {
			if apiNode.Value != scenarioAPIVersion {
				r.errorf(apiNode, "apiVersion", "invalid value "+strconv.Quote(apiNode.Value)+": kind Scenario must have apiVersion "+strconv.Quote(scenarioAPIVersion))
				return
			}
			if scenarioDoc != 0 {
				r.errorf(kindNode, "kind", "a file may hold only one Scenario document; document "+strconv.Itoa(scenarioDoc)+" is one already")
				return
			}
			scenarioDoc = doc
			r.decodeScenario(body, s)
			return
		}
		ignored += r.decodeObjects(body, kindNode, apiNode, "", &s.Objects)
	})
	if p.count() == 0 {
		p.finish(s, scenarioDoc != 0, ignored, opts.SpecOnly || s.SpecOnly)
	}
	if err := p.result(); err != nil {
		return nil, err
	}
	s.Notices = p.notices
	return s, nil
}

// finish checks the file as a whole once every document is read: there must
// be something to simulate; a file without a Scenario document gets the
// default one; later objects of the same name replace earlier ones; live
// cluster output is turned into the initial state (or stripped).
func (p *parser) finish(s *Scenario, hasScenario bool, ignored int, specOnly bool) {
	if len(s.Objects) == 0 && len(s.Timeline) == 0 && !hasScenario {
		// (A Scenario document alone is a valid, if idle, scenario.)
		msg := "nothing to simulate: the file holds no Deployment, ReplicaSet or Pod"
		if ignored > 0 {
			msg += " (ignored, of kinds it does not simulate: " + p.ignoredList() + ")"
		}
		p.add(&Error{File: p.file, Message: msg})
		return
	}
	if !hasScenario {
		p.defaultScenario(s)
	}
	if len(s.Objects) == 0 {
		return
	}
	p.noteReplaced(s.Objects)
	p.prepareLive(s, specOnly)
	p.notePeaks(s)
	p.notePaused(s)
	p.noteScheduling(s)
}

// ignoredList names the objects of kinds not simulated, from their
// notices: "StatefulSet db (line 7), DaemonSet agent (line 19)", the first
// five and how many more.
func (p *parser) ignoredList() string {
	var names []string
	more := 0
	for _, n := range p.notices {
		if n.Code != NoticeIgnored {
			continue
		}
		if len(names) == 5 {
			more++
			continue
		}
		name := n.Kind
		if n.Name != "" {
			name += " " + n.Name
		}
		if n.Line > 0 {
			name += " (line " + strconv.Itoa(n.Line) + ")"
		}
		names = append(names, name)
	}
	if more > 0 {
		names = append(names, strconv.Itoa(more)+" more")
	}
	return strings.Join(names, ", ")
}

// notePaused says which Deployments start paused: the controller rolls
// out no change of their template until they are resumed.
func (p *parser) notePaused(s *Scenario) {
	for _, o := range s.Objects {
		if d, ok := o.Obj.(*appsv1.Deployment); ok && d.Spec.Paused {
			p.notify(Notice{Doc: o.Doc, Line: o.FieldLine("spec.paused"), Kind: "Deployment", Name: d.Name, Code: NoticePaused,
				Message: "paused: a change to its pod template is not rolled out until it is resumed (a timeline resume action, or kubectl rollout resume)"})
		}
	}
}

// notePeaks warns about each Deployment whose rolling update may want
// more pods at once than the pod limit: its replicas, the maxSurge new ones
// on top, and about maxUnavailable old ones still terminating (they count
// until they are gone), resolved as the controller resolves them (surge
// rounded up, unavailability down, not both zero) with the API server's
// defaults. Such a run stops with an error half-way through a rollout; its
// replicas alone within the limit, the file loads. (Timeline actions that
// scale or change the strategy later are not weighed.)
func (p *parser) notePeaks(s *Scenario) {
	for _, o := range s.Objects {
		d, ok := o.Obj.(*appsv1.Deployment)
		if !ok || d.Spec.Replicas == nil || int(*d.Spec.Replicas) > s.Limits.MaxPods {
			continue
		}
		st := d.Spec.Strategy
		if st.Type != "" && st.Type != appsv1.RollingUpdateDeploymentStrategyType {
			continue
		}
		quarter := intstr.FromString("25%")
		surge, unavail := &quarter, &quarter
		if ru := st.RollingUpdate; ru != nil {
			if ru.MaxSurge != nil {
				surge = ru.MaxSurge
			}
			if ru.MaxUnavailable != nil {
				unavail = ru.MaxUnavailable
			}
		}
		replicas := int(*d.Spec.Replicas)
		up32, down32, err := deployutil.ResolveFenceposts(surge, unavail, *d.Spec.Replicas)
		if err != nil {
			continue
		}
		up, down := int(up32), min(int(down32), replicas)
		if replicas+up+down <= s.Limits.MaxPods {
			continue
		}
		p.notify(Notice{Doc: o.Doc, Line: o.FieldLine("spec.replicas"), Kind: "Deployment", Name: d.Name, Code: NoticeLimit,
			Message: "a rolling update may want about " + strconv.Itoa(replicas+up+down) + " pods at once (" + strconv.Itoa(replicas) +
				" replicas + maxSurge " + strconv.Itoa(up) + " new ones + up to maxUnavailable " + strconv.Itoa(down) +
				" old ones still terminating), more than the pod limit, " + strconv.Itoa(s.Limits.MaxPods) +
				" (spec.limits.maxPods): a rollout would stop there; raise spec.limits.maxPods in a Scenario document or lower maxSurge"})
	}
}

// defaultScenario names a file without a Scenario document after its first
// Deployment (else its first object) and says which defaults apply.
func (p *parser) defaultScenario(s *Scenario) {
	first := s.Objects[0]
	for _, o := range s.Objects {
		if o.Kind() == KindDeployment {
			first = o
			break
		}
	}
	if name := objectName(first); name != "" {
		s.Name = name
	}
	p.notify(Notice{Code: NoticeDefaultScenario, Message: "no " + scenarioAPIVersion + " Scenario document: scenario " + strconv.Quote(s.Name) +
		" with the default cluster, seed 0 and no timeline; it runs until the cluster settles"})
}

// noteReplaced reports each object that a later one of the same kind,
// namespace and name replaces. Both stay in Objects: set-up applies them in
// order, so the later one configures the earlier, as `kubectl apply -f`
// does with such a file.
func (p *parser) noteReplaced(objs []Object) {
	first := map[string]Object{}
	for _, o := range objs {
		key := o.Kind().String() + "/" + objectNamespace(o) + "/" + objectName(o)
		prev, dup := first[key]
		if !dup {
			first[key] = o
			continue
		}
		p.notify(Notice{Doc: o.Doc, Line: o.Line, Kind: kubeKindName(o.Kind()), Name: objectName(o), Code: NoticeReplaced,
			Message: kubectlName(o) + " configured: line " + strconv.Itoa(o.Line) +
				" replaces the object of the same name on line " + strconv.Itoa(prev.Line) + " (namespace " + objectNamespace(o) + ")"})
	}
}

// documents calls visit with each non-empty document of data, numbered from
// 1, and reports syntax errors and too many documents.
func (p *parser) documents(data []byte, visit func(doc int, body *node)) {
	dec := newYAMLDecoder(data)
	for doc := 1; ; doc++ {
		var root node
		err := decodeNode(dec, &root)
		if err == io.EOF {
			return
		}
		if err != nil {
			p.add(syntaxError(p.file, doc, err))
			return
		}
		if len(root.Content) == 0 {
			continue
		}
		body := root.Content[0]
		if body.Kind == scalarNode && body.Tag == tagNull {
			continue // an empty document, e.g. after a trailing "---"
		}
		if doc > MaxDocuments {
			p.add(&Error{File: p.file, Doc: doc, Line: firstLine(&root), Message: "too many documents: the limit is " + strconv.Itoa(MaxDocuments)})
			return
		}
		visit(doc, body)
	}
}

// decodeNode decodes the next document, turning a panic of the YAML
// library (which it documents as impossible, but the input is untrusted)
// into an error.
func decodeNode(dec *yamlDecoder, n *node) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = errors.New("yaml: malformed document")
		}
	}()
	return dec.Decode(n)
}

// typeOf reads kind and apiVersion of a document, reporting when either is
// missing or not a string.
func (r *docReader) typeOf(body *node) (kindNode, apiNode *node, ok bool) {
	return r.typeOfAt(body, "")
}

// typeOfAt is typeOf for a List item at path.
func (r *docReader) typeOfAt(body *node, path string) (kindNode, apiNode *node, ok bool) {
	body = resolve(body)
	if body.Kind != mappingNode {
		r.errorf(body, path, "expected a mapping (a Kubernetes object or a Scenario), got "+describe(body))
		return nil, nil, false
	}
	// Read the first kind and apiVersion keys without reporting anything
	// else: the full decode that follows reports the other problems once.
	var kf, af field
	var hasKind, hasAPI bool
	content := mergedContent(body)
	for i := 0; i+1 < len(content); i += 2 {
		k := resolve(content[i])
		switch {
		case k.Kind != scalarNode:
		case k.Value == "kind" && !hasKind:
			kf, hasKind = field{k, content[i+1]}, true
		case k.Value == "apiVersion" && !hasAPI:
			af, hasAPI = field{k, content[i+1]}, true
		}
	}
	if !hasKind {
		r.errorf(body, join(path, "kind"), "required field is missing: expected one of "+supportedKinds)
		return nil, nil, false
	}
	if kindNode, ok = r.scalar(kf.value, join(path, "kind"), "a kind"); !ok {
		return nil, nil, false
	}
	if !hasAPI {
		r.errorf(body, join(path, "apiVersion"), "required field is missing")
		return nil, nil, false
	}
	if apiNode, ok = r.scalar(af.value, join(path, "apiVersion"), "an apiVersion"); !ok {
		return nil, nil, false
	}
	return kindNode, apiNode, true
}

// syntaxLine finds the line number in a YAML library error message.
var syntaxLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a YAML library error into an Error with its line.
func syntaxError(file string, doc int, err error) *Error {
	msg := err.Error()
	e := &Error{File: file, Doc: doc, Message: "invalid YAML: " + msg}
	if m := syntaxLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Message = "invalid YAML: " + m[2]
	} else if len(msg) > 6 && msg[:6] == "yaml: " {
		e.Message = "invalid YAML: " + msg[6:]
	}
	return e
}

func firstLine(root *node) int {
	if len(root.Content) > 0 {
		return root.Content[0].Line
	}
	return root.Line
}

func sortedKeys(m map[string]field) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
