package scenario

import (
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/rolloutlab/rolloutlab/engine/kubelet"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// Field names of the Scenario schema, per mapping.
var (
	rootFields     = []string{"apiVersion", "kind", "metadata", "spec"}
	metadataFields = []string{"name", "description", "translations"}
	specFields     = []string{"seed", "cluster", "limits", "timeline", "annotations", "specOnly"}
	clusterFields  = []string{"nodes", "informerLag", "workers", "scheduleDelay", "shutdownDelay",
		"nodeMonitorGracePeriod", "evictionTimeout", "defaultImage", "images", "turnOrder"}
	workersFields = []string{"replicaset", "deployment"}
	profileFields = []string{"startDelay", "readyDelay", "jitter", "crashLoop", "crashAfter", "neverReady", "hangAfter", "pullError"}
	limitsFields  = []string{"maxPods", "maxSteps", "maxTraceRecords"}
	triggerFields = []string{"at", "after", "when"}
	whenFields    = []string{"rolloutComplete", "available", "settled", "step"}
	availFields   = []string{"target", "atLeast", "namespace"}
	// completeFields are the fields of rolloutComplete's mapping form.
	completeFields = []string{"target", "namespace"}
)

// actionSpec lists, per action, the fields it requires and those it allows
// besides the trigger, "action" and those it requires.
type actionSpec struct {
	required []string
	optional []string
	// kinds are the target kinds accepted (when "target" is a field).
	kinds []Kind
}

var actionSpecs = [...]actionSpec{
	ActionApply:               {required: []string{"manifest"}},
	ActionScale:               {required: []string{"target", "replicas"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment, KindReplicaSet}},
	ActionSetImage:            {required: []string{"target", "image"}, optional: []string{"namespace", "container"}, kinds: []Kind{KindDeployment}},
	ActionPause:               {required: []string{"target"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment}},
	ActionResume:              {required: []string{"target"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment}},
	ActionRestart:             {required: []string{"target"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment}},
	ActionUndo:                {required: []string{"target"}, optional: []string{"namespace", "toRevision"}, kinds: []Kind{KindDeployment}},
	ActionDelete:              {required: []string{"target"}, optional: []string{"namespace", "propagationPolicy", "options"}, kinds: []Kind{KindDeployment, KindReplicaSet, KindPod}},
	ActionDeletePod:           {required: []string{"name"}, optional: []string{"namespace"}},
	ActionFailNode:            {required: []string{"node"}},
	ActionRecoverNode:         {required: []string{"node"}},
	ActionSetImageProfile:     {required: []string{"image", "profile"}},
	ActionRemoveFinalizer:     {required: []string{"target", "finalizer"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment, KindReplicaSet, KindPod}},
	ActionWriteStatus:         {required: []string{"target", "replicas", "via"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment, KindReplicaSet}},
	ActionSetRollingUpdate:    {required: []string{"target"}, optional: []string{"namespace", "maxSurge", "maxUnavailable"}, kinds: []Kind{KindDeployment}},
	ActionSetStrategy:         {required: []string{"target", "strategy"}, optional: []string{"namespace", "maxSurge", "maxUnavailable"}, kinds: []Kind{KindDeployment}},
	ActionSetMinReadySeconds:  {required: []string{"target", "minReadySeconds"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment}},
	ActionSetProgressDeadline: {required: []string{"target", "progressDeadlineSeconds"}, optional: []string{"namespace"}, kinds: []Kind{KindDeployment}},
	ActionSetResources:        {required: []string{"target", "resources"}, optional: []string{"namespace", "container"}, kinds: []Kind{KindDeployment}},
	ActionSetEnv:              {required: []string{"target", "env"}, optional: []string{"namespace", "container"}, kinds: []Kind{KindDeployment}},
}

// allActionFields is every field a timeline entry may have.
var allActionFields = []string{"at", "after", "when", "action", "namespace", "target", "replicas",
	"container", "image", "toRevision", "propagationPolicy", "options", "name", "node", "profile", "manifest",
	"finalizer", "via", "maxSurge", "maxUnavailable", "strategy", "minReadySeconds", "progressDeadlineSeconds", "resources", "env"}

// deleteOptionFields are the fields of delete's "options".
var deleteOptionFields = []string{"propagationPolicy", "orphanDependents"}

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
			if f, ok := m["translations"]; ok {
				r.decodeScenarioTranslations(f.value, s)
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
			s.Limits.At.Doc = r.doc
			limit := func(name string, hi int64, v, line *int) {
				if f, ok := m[name]; ok {
					if n, ok := r.integer(f.value, "spec.limits."+name, 1, hi); ok {
						*v, *line = int(n), resolve(f.value).Line+r.lineOffset
					}
				}
			}
			limit("maxPods", MaxPodsLimit, &s.Limits.MaxPods, &s.Limits.At.MaxPods)
			limit("maxSteps", MaxStepsLimit, &s.Limits.MaxSteps, &s.Limits.At.MaxSteps)
			limit("maxTraceRecords", MaxTraceRecordsLimit, &s.Limits.MaxTraceRecords, &s.Limits.At.MaxTraceRecords)
		}
	}
	if f, ok := spec["timeline"]; ok {
		r.decodeTimeline(f.value, "spec.timeline", s)
	}
	if f, ok := spec["annotations"]; ok {
		r.decodeAnnotations(f.value, "spec.annotations", s)
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
	if f, ok := m["turnOrder"]; ok {
		p := join(path, "turnOrder")
		if name, ok := r.str(f.value, p); ok {
			t, known := sim.ParseTurnOrder(name)
			if !known {
				msg := "unknown turn order " + strconv.Quote(name) + ": expected one of " + strings.Join(sim.TurnOrderNames(), ", ")
				if sg := suggest(name, sim.TurnOrderNames()); sg != "" {
					msg = "unknown turn order " + strconv.Quote(name) + ` (did you mean "` + sg + `"?)`
				}
				r.errorf(resolve(f.value), p, msg)
			}
			c.TurnOrder = t
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
	}{{"startDelay", &p.StartDelay}, {"readyDelay", &p.ReadyDelay}, {"jitter", &p.Jitter}, {"crashAfter", &p.CrashAfter}, {"hangAfter", &p.HangAfter}} {
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
	if f, ok := m["pullError"]; ok {
		if v, ok := r.boolean(f.value, join(path, "pullError")); ok {
			p.PullError = v
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
	r.decodeEditFields(n, m, path, spec, &a)
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
			if v := resolve(f.value); v != nil && v.Kind == mappingNode {
				if cm, ok := r.mapping(v, p, completeFields); ok {
					if tf, ok := cm["target"]; ok {
						c.Target, _ = r.ref(tf.value, join(p, "target"), []Kind{KindDeployment})
					} else {
						r.errorf(v, join(p, "target"), "required field is missing")
					}
					if _, ok := cm["namespace"]; ok {
						c.Namespace = r.namespace(cm, p)
					}
				}
			} else {
				c.Target, _ = r.ref(f.value, p, []Kind{KindDeployment})
			}
		case "available":
			c.Type = CondAvailable
			if am, ok := r.mapping(f.value, p, availFields); ok {
				if tf, ok := am["target"]; ok {
					c.Target, _ = r.ref(tf.value, join(p, "target"), []Kind{KindDeployment, KindReplicaSet})
				} else {
					r.errorf(resolve(f.value), join(p, "target"), "required field is missing")
				}
				if _, ok := am["namespace"]; ok {
					c.Namespace = r.namespace(am, p)
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
		msg := "invalid value " + strconv.Quote(s) + ": the kind must be " + joinOr(kindNames(kinds))
		if _, isKind := kindAliases[strings.ToLower(kindStr)]; !isKind && !strings.Contains(otherKinds, " "+strings.ToLower(kindStr)+" ") && !strings.Contains(name, "/") && len(validation.IsDNS1123Label(kindStr)) == 0 {
			msg += " (to name a namespace, write target: " + kinds[0].String() + "/" + name + " and namespace: " + kindStr + ")"
		}
		r.errorf(n, path, msg)
		return Ref{}, false
	}
	if msgs := validation.IsDNS1123Subdomain(name); len(msgs) > 0 {
		r.errorf(n, path, "invalid name "+strconv.Quote(name)+": "+msgs[0])
		return Ref{}, false
	}
	return Ref{Kind: k, Name: name}, true
}

// otherKinds are kubectl resource names Rollout Lab does not act on,
// space-separated: a target "service/x" is a wrong kind, not a namespace
// mistake.
const otherKinds = " service services svc configmap configmaps cm secret secrets ingress ingresses ing statefulset statefulsets sts" +
	" daemonset daemonsets ds job jobs cronjob cronjobs cj hpa horizontalpodautoscaler horizontalpodautoscalers namespace namespaces ns" +
	" node nodes no pvc persistentvolumeclaim serviceaccount sa replicationcontroller replicationcontrollers rc pdb poddisruptionbudget" +
	" networkpolicy netpol endpoints ep event events ev "

// namespace reads the optional "namespace" field of m (under path):
// "default" when absent.
func (r *docReader) namespace(m map[string]field, path string) string {
	f, ok := m["namespace"]
	if !ok {
		return "default"
	}
	p := join(path, "namespace")
	ns, ok := r.str(f.value, p)
	if !ok {
		return "default"
	}
	if msgs := validation.IsDNS1123Label(ns); len(msgs) > 0 {
		r.errorf(resolve(f.value), p, "invalid namespace "+strconv.Quote(ns)+": "+msgs[0])
	}
	return ns
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
	if _, _, ok := get("namespace"); ok {
		a.Namespace = r.namespace(m, path)
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
	// A policy is any string: the API server judges it (422 for one it
	// does not know), as it does for kubectl.
	if v, p, ok := get("propagationPolicy"); ok {
		if pol, ok := r.str(v, p); ok {
			a.PropagationPolicy = metav1.DeletionPropagation(pol)
		}
		if _, both := m["options"]; both {
			r.errorf(resolve(v), p, "give the propagation policy either here or inside options, not both")
		}
	}
	if v, p, ok := get("options"); ok {
		a.Options = r.decodeDeleteOptions(v, p)
	} else if a.Type == ActionDelete && a.PropagationPolicy == "" {
		a.PropagationPolicy = metav1.DeletePropagationBackground
	}
	if v, p, ok := get("finalizer"); ok {
		if fin, ok := r.str(v, p); ok {
			if fin == "" {
				r.errorf(resolve(v), p, "invalid value \"\": must be a finalizer name like \"example.com/hold\"")
			}
			a.Finalizer = fin
		}
	}
	if v, p, ok := get("via"); ok {
		if via, ok := r.str(v, p); ok {
			if via != ViaStatus && via != ViaMain {
				r.errorf(resolve(v), p, "invalid value "+strconv.Quote(via)+": must be status (the /status subresource) or main (the object itself)")
			}
			a.Via = via
		}
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

// decodeDeleteOptions reads delete's "options": the request body, sent as
// written (an empty mapping: no options at all).
func (r *docReader) decodeDeleteOptions(n *node, path string) *DeleteOptions {
	opts := &DeleteOptions{}
	m, ok := r.mapping(n, path, deleteOptionFields)
	if !ok {
		return opts
	}
	if f, ok := m["propagationPolicy"]; ok {
		if pol, ok := r.str(f.value, join(path, "propagationPolicy")); ok {
			p := metav1.DeletionPropagation(pol)
			opts.PropagationPolicy = &p
		}
	}
	if f, ok := m["orphanDependents"]; ok {
		if v, ok := r.boolean(f.value, join(path, "orphanDependents")); ok {
			opts.OrphanDependents = &v
		}
	}
	return opts
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
