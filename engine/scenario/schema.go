package scenario

import (
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/rolloutlab/rolloutlab/engine/kubelet"
)

// Field names of the Scenario schema, per mapping.
var (
	rootFields     = []string{"apiVersion", "kind", "metadata", "spec"}
	metadataFields = []string{"name", "description"}
	specFields     = []string{"seed", "cluster", "limits", "timeline", "specOnly"}
	clusterFields  = []string{"nodes", "informerLag", "workers", "scheduleDelay", "shutdownDelay",
		"nodeMonitorGracePeriod", "evictionTimeout", "defaultImage", "images"}
	workersFields = []string{"replicaset", "deployment"}
	profileFields = []string{"startDelay", "readyDelay", "jitter", "crashLoop", "crashAfter", "neverReady"}
	limitsFields  = []string{"maxPods", "maxSteps"}
	triggerFields = []string{"at", "after", "when"}
	whenFields    = []string{"rolloutComplete", "available", "settled", "step"}
	availFields   = []string{"target", "atLeast"}
)

// actionSpec lists, per action, the fields it requires and those it allows
// besides the trigger, "action" and those it requires.
type actionSpec struct {
	required []string
	optional []string
	// kinds are the target kinds accepted (when "target" is a field).
	kinds []Kind
}

var actionSpecs = map[ActionType]actionSpec{
	ActionApply:           {required: []string{"manifest"}},
	ActionScale:           {required: []string{"target", "replicas"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment, KindReplicaSet}},
	ActionSetImage:        {required: []string{"target", "image"}, optional: []string{"namespace", "container"}, kinds: []Kind{KindDeployment}},
	ActionPause:           {required: []string{"target"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment}},
	ActionResume:          {required: []string{"target"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment}},
	ActionRestart:         {required: []string{"target"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment}},
	ActionUndo:            {required: []string{"target"}, optional: []string{"namespace", "toRevision"}, kinds: []Kind{KindDeployment}},
	ActionDelete:          {required: []string{"target"}, optional: []string{"namespace", "propagationPolicy"}, kinds: []Kind{KindDeployment, KindReplicaSet, KindPod}},
	ActionDeletePod:       {required: []string{"name"}, optional: []string{"namespace"}},
	ActionFailNode:        {required: []string{"node"}},
	ActionRecoverNode:     {required: []string{"node"}},
	ActionSetImageProfile: {required: []string{"image", "profile"}},
}

// allActionFields is every field a timeline entry may have.
var allActionFields = []string{"at", "after", "when", "action", "namespace", "target", "replicas",
	"container", "image", "toRevision", "propagationPolicy", "name", "node", "profile", "manifest"}

// decodeScenario reads a Scenario document into s.
func (r *docReader) decodeScenario(body *node, s *Scenario) {
	root, ok := r.mapping(body, "", rootFields)
	if !ok {
		return
	}
	if f, ok := root["metadata"]; ok {
		if m, ok := r.mapping(f.value, "metadata", metadataFields); ok {
			if f, ok := m["name"]; ok {
				if v, ok := r.str(f.value, "metadata.name"); ok {
					s.Name = v
				}
			}
			if f, ok := m["description"]; ok {
				if v, ok := r.str(f.value, "metadata.description"); ok {
					s.Description = v
				}
			}
		}
	}
	f, ok := root["spec"]
	if !ok {
		return
	}
	spec, ok := r.mapping(f.value, "spec", specFields)
	if !ok {
		return
	}
	if f, ok := spec["seed"]; ok {
		if n, ok := r.scalar(f.value, "spec.seed", "a non-negative integer"); ok {
			v, err := strconv.ParseUint(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
			if n.Tag != tagInt || err != nil {
				r.errorf(n, "spec.seed", "invalid value "+valueText(n)+": must be a non-negative 64-bit integer")
			}
			s.Seed = v
		}
	}
	if f, ok := spec["cluster"]; ok {
		r.decodeCluster(f.value, "spec.cluster", &s.Cluster)
	}
	if f, ok := spec["specOnly"]; ok {
		s.SpecOnly, _ = r.boolean(f.value, "spec.specOnly")
	}
	if f, ok := spec["limits"]; ok {
		if m, ok := r.mapping(f.value, "spec.limits", limitsFields); ok {
			if f, ok := m["maxPods"]; ok {
				if v, ok := r.integer(f.value, "spec.limits.maxPods", 1, MaxPodsLimit); ok {
					s.Limits.MaxPods = int(v)
				}
			}
			if f, ok := m["maxSteps"]; ok {
				if v, ok := r.integer(f.value, "spec.limits.maxSteps", 1, MaxStepsLimit); ok {
					s.Limits.MaxSteps = int(v)
				}
			}
		}
	}
	if f, ok := spec["timeline"]; ok {
		r.decodeTimeline(f.value, "spec.timeline", s)
	}
}

// decodeCluster reads spec.cluster over the defaults already in c.
func (r *docReader) decodeCluster(n *node, path string, c *ClusterSpec) {
	m, ok := r.mapping(n, path, clusterFields)
	if !ok {
		return
	}
	if f, ok := m["nodes"]; ok {
		r.decodeNodes(f.value, join(path, "nodes"), c)
		r.p.nodesGiven = true
	}
	for _, d := range []struct {
		key string
		dst *time.Duration
	}{
		{"informerLag", &c.InformerLag}, {"scheduleDelay", &c.ScheduleDelay}, {"shutdownDelay", &c.ShutdownDelay},
		{"nodeMonitorGracePeriod", &c.NodeMonitorGracePeriod}, {"evictionTimeout", &c.EvictionTimeout},
	} {
		if f, ok := m[d.key]; ok {
			if v, ok := r.duration(f.value, join(path, d.key)); ok {
				*d.dst = v
			}
		}
	}
	if f, ok := m["workers"]; ok {
		if w, ok := r.mapping(f.value, join(path, "workers"), workersFields); ok {
			if f, ok := w["replicaset"]; ok {
				if v, ok := r.integer(f.value, join(path, "workers.replicaset"), 1, 100); ok {
					c.Workers.ReplicaSet = int(v)
				}
			}
			if f, ok := w["deployment"]; ok {
				if v, ok := r.integer(f.value, join(path, "workers.deployment"), 1, 100); ok {
					c.Workers.Deployment = int(v)
				}
			}
		}
	}
	if f, ok := m["defaultImage"]; ok {
		c.DefaultImage = r.decodeProfile(f.value, join(path, "defaultImage"), c.DefaultImage)
	}
	if f, ok := m["images"]; ok {
		if imgs, ok := r.mapping(f.value, join(path, "images"), nil); ok && len(imgs) > 0 {
			c.Images = make(map[string]kubelet.ImageProfile, len(imgs))
			for _, k := range sortedKeys(imgs) {
				c.Images[k] = r.decodeProfile(imgs[k].value, join(path, "images")+"["+strconv.Quote(k)+"]", c.DefaultImage)
			}
		}
	}
}

// decodeNodes reads nodes: a count (node-1..node-N) or a list of names.
func (r *docReader) decodeNodes(n *node, path string, c *ClusterSpec) {
	n = resolve(n)
	if n != nil && n.Kind == scalarNode {
		count, ok := r.integer(n, path, 1, MaxNodes)
		if !ok {
			return
		}
		c.Nodes = make([]string, count)
		for i := range c.Nodes {
			c.Nodes[i] = "node-" + strconv.Itoa(i+1)
		}
		return
	}
	if n == nil || n.Kind != sequenceNode {
		r.errorf(n, path, "expected a node count or a list of node names, got "+describe(n))
		return
	}
	if len(n.Content) == 0 || len(n.Content) > MaxNodes {
		r.errorf(n, path, "must list between 1 and "+strconv.Itoa(MaxNodes)+" nodes")
		return
	}
	names := make([]string, 0, len(n.Content))
	for i, e := range n.Content {
		p := index(path, i)
		name, ok := r.str(e, p)
		if !ok {
			continue
		}
		if msgs := validation.IsDNS1123Subdomain(name); len(msgs) > 0 {
			r.errorf(resolve(e), p, "invalid node name "+strconv.Quote(name)+": "+msgs[0])
			continue
		}
		if contains(names, name) {
			r.errorf(resolve(e), p, "duplicate node name "+strconv.Quote(name))
			continue
		}
		names = append(names, name)
	}
	c.Nodes = names
}

// decodeProfile reads an image profile; fields it does not name keep their
// value from base.
func (r *docReader) decodeProfile(n *node, path string, base kubelet.ImageProfile) kubelet.ImageProfile {
	m, ok := r.mapping(n, path, profileFields)
	if !ok {
		return base
	}
	p := base
	for _, d := range []struct {
		key string
		dst *time.Duration
	}{{"startDelay", &p.StartDelay}, {"readyDelay", &p.ReadyDelay}, {"jitter", &p.Jitter}, {"crashAfter", &p.CrashAfter}} {
		if f, ok := m[d.key]; ok {
			if v, ok := r.duration(f.value, join(path, d.key)); ok {
				*d.dst = v
			}
		}
	}
	if f, ok := m["crashLoop"]; ok {
		if v, ok := r.boolean(f.value, join(path, "crashLoop")); ok {
			p.CrashLoop = v
		}
	}
	if f, ok := m["neverReady"]; ok {
		if v, ok := r.boolean(f.value, join(path, "neverReady")); ok {
			p.NeverReady = v
		}
	}
	return p
}

// decodeTimeline reads spec.timeline.
func (r *docReader) decodeTimeline(n *node, path string, s *Scenario) {
	n = resolve(n)
	if n == nil || n.Kind != sequenceNode {
		if n != nil && n.Kind == scalarNode && n.Tag == tagNull {
			return
		}
		r.errorf(n, path, "expected a list of actions, got "+describe(n))
		return
	}
	if len(n.Content) > MaxTimelineActions {
		r.errorf(n, path, "too many actions: the limit is "+strconv.Itoa(MaxTimelineActions))
		return
	}
	for i, e := range n.Content {
		if a, ok := r.decodeAction(e, index(path, i), s); ok {
			s.Timeline = append(s.Timeline, a)
		}
	}
}

// decodeAction reads one timeline entry.
func (r *docReader) decodeAction(n *node, path string, s *Scenario) (Action, bool) {
	before := r.p.count()
	m, ok := r.mapping(n, path, allActionFields)
	if !ok {
		return Action{}, false
	}
	n = resolve(n)
	a := Action{Doc: r.doc, Line: n.Line + r.lineOffset, Namespace: "default"}
	r.decodeTrigger(n, m, path, &a)
	af, ok := m["action"]
	if !ok {
		r.errorf(n, join(path, "action"), "required field is missing: expected one of "+strings.Join(actionTypeNames(), ", "))
		return Action{}, false
	}
	name, ok := r.str(af.value, join(path, "action"))
	if !ok {
		return Action{}, false
	}
	for t, nm := range actionNames {
		if nm == name && nm != "" {
			a.Type = ActionType(t)
		}
	}
	if a.Type == 0 {
		msg := "unknown action " + strconv.Quote(name) + ": expected one of " + strings.Join(actionTypeNames(), ", ")
		if sg := suggest(name, actionTypeNames()); sg != "" {
			msg = "unknown action " + strconv.Quote(name) + ` (did you mean "` + sg + `"?)`
		}
		r.errorf(resolve(af.value), join(path, "action"), msg)
		return Action{}, false
	}
	spec := actionSpecs[a.Type]
	for _, k := range sortedKeys(m) {
		if contains(triggerFields, k) || k == "action" || contains(spec.required, k) || contains(spec.optional, k) {
			continue
		}
		r.errorf(m[k].key, join(path, k), "field is not used by action "+a.Type.String())
	}
	for _, k := range spec.required {
		if _, ok := m[k]; !ok {
			r.errorf(n, join(path, k), "required field is missing for action "+a.Type.String())
		}
	}
	r.decodeActionFields(m, path, spec, s, &a)
	return a, r.p.count() == before
}

// decodeTrigger reads exactly one of at, after and when.
func (r *docReader) decodeTrigger(n *node, m map[string]field, path string, a *Action) {
	var present []string
	for _, k := range triggerFields {
		if _, ok := m[k]; ok {
			present = append(present, k)
		}
	}
	switch len(present) {
	case 0:
		r.errorf(n, path, "one of at, after or when is required")
		return
	case 1:
	default:
		r.errorf(m[present[1]].key, join(path, present[1]), "only one of at, after and when may be given (found "+strings.Join(present, " and ")+")")
		return
	}
	k := present[0]
	v := m[k].value
	switch k {
	case "at":
		a.Trigger.Type = TriggerAt
		a.Trigger.At, _ = r.duration(v, join(path, "at"))
	case "after":
		a.Trigger.Type = TriggerAfter
		a.Trigger.After, _ = r.duration(v, join(path, "after"))
	case "when":
		a.Trigger.Type = TriggerWhen
		a.Trigger.When = r.decodeCondition(v, join(path, "when"))
	}
}

// decodeCondition reads a when condition: a mapping with exactly one key.
func (r *docReader) decodeCondition(n *node, path string) Condition {
	before := r.p.count()
	m, ok := r.mapping(n, path, whenFields)
	if !ok {
		return Condition{}
	}
	if len(m) > 1 || (len(m) == 0 && r.p.count() == before) {
		r.errorf(resolve(n), path, "expected exactly one condition: rolloutComplete, available, settled or step")
		return Condition{}
	}
	var c Condition
	for k, f := range m {
		p := join(path, k)
		switch k {
		case "rolloutComplete":
			c.Type = CondRolloutComplete
			c.Target, _ = r.ref(f.value, p, []Kind{KindDeployment})
		case "available":
			c.Type = CondAvailable
			if am, ok := r.mapping(f.value, p, availFields); ok {
				if tf, ok := am["target"]; ok {
					c.Target, _ = r.ref(tf.value, join(p, "target"), []Kind{KindDeployment, KindReplicaSet})
				} else {
					r.errorf(resolve(f.value), join(p, "target"), "required field is missing")
				}
				if af, ok := am["atLeast"]; ok {
					v, _ := r.integer(af.value, join(p, "atLeast"), 0, 1<<31-1)
					c.AtLeast = int32(v)
				} else {
					r.errorf(resolve(f.value), join(p, "atLeast"), "required field is missing")
				}
			}
		case "settled":
			c.Type = CondSettled
			if v, ok := r.boolean(f.value, p); ok && !v {
				r.errorf(resolve(f.value), p, "invalid value false: settled can only be true")
			}
		case "step":
			c.Type = CondStep
			v, _ := r.integer(f.value, p, 0, MaxStepsLimit)
			c.Step = int(v)
		}
	}
	return c
}

// ref reads a "kind/name" target whose kind is one of kinds.
func (r *docReader) ref(n *node, path string, kinds []Kind) (Ref, bool) {
	s, ok := r.str(n, path)
	if !ok {
		return Ref{}, false
	}
	n = resolve(n)
	want := make([]string, len(kinds))
	for i, k := range kinds {
		want[i] = k.String() + "/<name>"
	}
	kindStr, name, found := strings.Cut(s, "/")
	if !found || kindStr == "" || name == "" {
		r.errorf(n, path, "invalid value "+strconv.Quote(s)+": must be of the form "+joinOr(want))
		return Ref{}, false
	}
	k, ok := kindAliases[strings.ToLower(kindStr)]
	if !ok || !containsKind(kinds, k) {
		r.errorf(n, path, "invalid value "+strconv.Quote(s)+": the kind must be "+joinOr(kindNames(kinds)))
		return Ref{}, false
	}
	if msgs := validation.IsDNS1123Subdomain(name); len(msgs) > 0 {
		r.errorf(n, path, "invalid name "+strconv.Quote(name)+": "+msgs[0])
		return Ref{}, false
	}
	return Ref{Kind: k, Name: name}, true
}

// joinOr renders "a", "a or b", "a, b or c".
func joinOr(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func containsKind(kinds []Kind, k Kind) bool {
	for _, v := range kinds {
		if v == k {
			return true
		}
	}
	return false
}

func kindNames(kinds []Kind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.String()
	}
	return out
}

// decodeActionFields reads the action-specific fields present in m.
func (r *docReader) decodeActionFields(m map[string]field, path string, spec actionSpec, s *Scenario, a *Action) {
	get := func(k string) (*node, string, bool) {
		f, ok := m[k]
		if !ok || !(contains(spec.required, k) || contains(spec.optional, k)) {
			return nil, "", false
		}
		return f.value, join(path, k), true
	}
	if v, p, ok := get("namespace"); ok {
		if ns, ok := r.str(v, p); ok {
			if msgs := validation.IsDNS1123Label(ns); len(msgs) > 0 {
				r.errorf(resolve(v), p, "invalid namespace "+strconv.Quote(ns)+": "+msgs[0])
			}
			a.Namespace = ns
		}
	}
	if v, p, ok := get("target"); ok {
		a.Target, _ = r.ref(v, p, spec.kinds)
	}
	if v, p, ok := get("replicas"); ok {
		n, _ := r.integer(v, p, 0, 1<<31-1)
		a.Replicas = int32(n)
	}
	if v, p, ok := get("container"); ok {
		a.Container, _ = r.str(v, p)
	}
	if v, p, ok := get("image"); ok {
		if img, ok := r.str(v, p); ok {
			if img == "" || strings.ContainsAny(img, " \t\n") {
				r.errorf(resolve(v), p, "invalid value "+strconv.Quote(img)+": must be an image reference like \"nginx:1.27\"")
			}
			a.Image = img
		}
	}
	if v, p, ok := get("toRevision"); ok {
		if n, ok := r.scalar(v, p, "a revision number"); ok {
			rev, err := strconv.ParseInt(n.Value, 10, 64)
			if n.Tag != tagInt || err != nil || rev < 0 {
				r.errorf(n, p, "invalid value "+valueText(n)+": must be a revision number, or 0 for the previous revision")
			}
			a.ToRevision = rev
		}
	}
	if v, p, ok := get("propagationPolicy"); ok {
		if pol, ok := r.str(v, p); ok {
			switch metav1.DeletionPropagation(pol) {
			case metav1.DeletePropagationBackground, metav1.DeletePropagationForeground, metav1.DeletePropagationOrphan:
				a.PropagationPolicy = metav1.DeletionPropagation(pol)
			default:
				r.errorf(resolve(v), p, "invalid value "+strconv.Quote(pol)+": must be Background, Foreground or Orphan")
			}
		}
	} else if a.Type == ActionDelete {
		a.PropagationPolicy = metav1.DeletePropagationBackground
	}
	if v, p, ok := get("name"); ok {
		if name, ok := r.str(v, p); ok {
			if msgs := validation.IsDNS1123Subdomain(name); len(msgs) > 0 {
				r.errorf(resolve(v), p, "invalid pod name "+strconv.Quote(name)+": "+msgs[0])
			}
			a.Pod = name
		}
	}
	if v, p, ok := get("node"); ok {
		if node, ok := r.str(v, p); ok {
			if !contains(s.Cluster.Nodes, node) {
				r.errorf(resolve(v), p, "unknown node "+strconv.Quote(node)+": the cluster's nodes are "+listNodes(s.Cluster.Nodes))
			}
			a.Node = node
		}
	}
	if v, p, ok := get("profile"); ok {
		base := s.Cluster.DefaultImage
		if prof, ok := s.Cluster.Images[a.Image]; ok {
			base = prof
		}
		a.Profile = r.decodeProfile(v, p, base)
	}
	if v, p, ok := get("manifest"); ok {
		a.Manifest = r.decodeManifest(v, p)
	}
}

// listNodes renders node names for a message, eliding after five.
func listNodes(nodes []string) string {
	if len(nodes) > 5 {
		return strings.Join(nodes[:5], ", ") + ", ... (" + strconv.Itoa(len(nodes)) + " in all)"
	}
	return strings.Join(nodes, ", ")
}

// decodeManifest reads apply's manifest: a string holding Kubernetes YAML
// documents. Errors inside it are reported at their line in the file.
func (r *docReader) decodeManifest(n *node, path string) []Object {
	s, ok := r.scalar(n, path, "a string holding Kubernetes YAML (use a block: manifest: |)")
	if !ok {
		return nil
	}
	if s.Tag != tagStr {
		r.errorf(s, path, "expected a string holding Kubernetes YAML, got "+describe(s))
		return nil
	}
	offset := s.Line - 1 + r.lineOffset
	if s.Style == literalStyle || s.Style == foldedStyle {
		offset = s.Line + r.lineOffset // the content starts on the next line
	}
	sub := &parser{file: r.p.file}
	var objs []Object
	sub.documents([]byte(s.Value), func(doc int, body *node) {
		inner := &docReader{p: sub, doc: doc}
		kindNode, apiNode, ok := inner.typeOf(body)
		if !ok {
			return
		}
		if kindNode.Value == scenarioKind {
			inner.errorf(kindNode, "kind", "a manifest may hold only Kubernetes objects: "+supportedKinds[:strings.Index(supportedKinds, " and ")])
			return
		}
		inner.decodeObjects(body, kindNode, apiNode, "", &objs)
	})
	for _, nt := range sub.notices {
		nt.Doc = r.doc
		if nt.Line > 0 {
			nt.Line += offset
		}
		nt.Message = "(" + path + ") " + nt.Message
		r.p.notify(nt)
	}
	for i := range objs {
		objs[i].Doc, objs[i].Line = r.doc, objs[i].Line+offset
	}
	for _, e := range sub.errs {
		e.Field = join(path, e.Field)
		if e.Doc > 1 {
			e.Message = "(manifest document " + strconv.Itoa(e.Doc) + ") " + e.Message
		}
		e.Doc = r.doc
		if e.Line > 0 {
			e.Line += offset
			e.Column = 0
		}
		r.p.add(e)
	}
	if sub.truncated {
		r.p.truncated = true
	}
	return objs
}
