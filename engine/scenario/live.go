package scenario

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

// This file turns pasted cluster output (`kubectl get deploy,rs,pods -o
// yaml`) into something the simulation can start from. What the cluster
// wrote is recognised by its fields: uid, resourceVersion,
// creationTimestamp, generation, managedFields, ownerReferences and status.
//
// By default such objects are the INITIAL STATE of the simulated cluster:
// they keep their status, generation, revision annotations and owner
// references (resolved by kind and name, since their UIDs belong to another
// cluster), and set-up restores them as they are instead of applying them.
// In spec-only mode the server's fields are dropped and the objects a
// controller manages are left out, so that the simulation starts from the
// specs alone. Every field dropped or reinterpreted is named in a notice.

// controllerAnnotations are annotations the Deployment controller writes.
var controllerAnnotations = []string{"deployment.kubernetes.io/revision", "deployment.kubernetes.io/revision-history",
	"deployment.kubernetes.io/desired-replicas", "deployment.kubernetes.io/max-replicas"}

// serverFieldsOf lists the server-written fields o gives values to, in a
// fixed order. `creationTimestamp: null` and `status: {}`, which
// `kubectl create --dry-run -o yaml` prints, do not count.
func serverFieldsOf(o Object) []string {
	m := metaOf(o)
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"uid", m.UID != ""},
		{"resourceVersion", m.ResourceVersion != ""},
		{"creationTimestamp", !m.CreationTimestamp.Time.IsZero()},
		{"generation", m.Generation != 0},
		{"managedFields", len(m.ManagedFields) > 0},
		{"selfLink", m.SelfLink != ""},
		{"deletionTimestamp", m.DeletionTimestamp != nil},
		{"ownerReferences", len(m.OwnerReferences) > 0},
		{"status", hasStatus(o)},
	} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

// hasStatus reports whether o's status is set.
func hasStatus(o Object) bool {
	switch obj := o.Obj.(type) {
	case *appsv1.Deployment:
		return !reflect.DeepEqual(obj.Status, appsv1.DeploymentStatus{})
	case *appsv1.ReplicaSet:
		return !reflect.DeepEqual(obj.Status, appsv1.ReplicaSetStatus{})
	case *corev1.Pod:
		return !reflect.DeepEqual(obj.Status, corev1.PodStatus{})
	}
	return false
}

// isLive reports whether o carries what only a cluster writes.
func isLive(o Object) bool {
	for _, f := range serverFieldsOf(o) {
		if f != "ownerReferences" { // a hand-written file may set owners
			return true
		}
	}
	return false
}

// prepareLive handles the live objects of s (see the file comment).
func (p *parser) prepareLive(s *Scenario, specOnly bool) {
	live := false
	for _, o := range s.Objects {
		live = live || isLive(o)
	}
	if !live {
		return
	}
	if specOnly {
		p.stripLive(s)
		return
	}
	p.restoreLive(s)
}

// stripLive keeps the specs of live objects only and leaves out the objects
// a controller in the file manages.
func (p *parser) stripLive(s *Scenario) {
	inFile := objectKeys(s.Objects)
	kept := s.Objects[:0]
	for _, o := range s.Objects {
		fields := serverFieldsOf(o)
		if len(fields) == 0 {
			kept = append(kept, o)
			continue
		}
		m := metaOf(o)
		if owner := controllerOf(m); owner != nil && inFile[owner.Kind+"/"+m.Namespace+"/"+owner.Name] {
			p.notify(Notice{Doc: o.Doc, Line: o.Line, Kind: kubeKindName(o.Kind()), Name: m.Name, Code: NoticeStripped,
				Message: "spec only: left out, it is managed by " + owner.Kind + "/" + owner.Name + " (the controller creates its own)"})
			continue
		}
		clearServerFields(o)
		dropped := append([]string(nil), fields...)
		for _, a := range controllerAnnotations {
			if _, ok := m.Annotations[a]; ok {
				delete(m.Annotations, a)
				dropped = append(dropped, "annotation "+a)
			}
		}
		if pod, ok := o.Obj.(*corev1.Pod); ok && pod.Spec.NodeName != "" {
			pod.Spec.NodeName = ""
			dropped = append(dropped, "spec.nodeName")
		}
		p.notify(Notice{Doc: o.Doc, Line: o.Line, Kind: kubeKindName(o.Kind()), Name: m.Name, Code: NoticeStripped,
			Message: "spec only: dropped " + strings.Join(dropped, ", ")})
		kept = append(kept, o)
	}
	s.Objects = kept
}

// clearServerFields removes every server-written field from o.
func clearServerFields(o Object) {
	m := metaOf(o)
	m.UID, m.ResourceVersion, m.CreationTimestamp, m.Generation = "", "", metav1.Time{}, 0
	m.ManagedFields, m.SelfLink, m.DeletionTimestamp, m.DeletionGracePeriodSeconds, m.OwnerReferences = nil, "", nil, nil, nil
	switch o := o.Obj.(type) {
	case *appsv1.Deployment:
		o.Status = appsv1.DeploymentStatus{}
	case *appsv1.ReplicaSet:
		o.Status = appsv1.ReplicaSetStatus{}
	case *corev1.Pod:
		o.Status = corev1.PodStatus{}
	}
}

// restoreLive marks live objects as the initial state and says how each of
// their server fields is taken.
func (p *parser) restoreLive(s *Scenario) {
	byName := objectKeys(s.Objects)
	latest := time.Time{}
	var nodes []string
	first, count := -1, 0
	for i := range s.Objects {
		o := &s.Objects[i]
		if !isLive(*o) {
			continue
		}
		o.Live = true
		if first < 0 {
			first = i
		}
		count++
		m := metaOf(*o)
		m.ManagedFields, m.SelfLink, m.ResourceVersion, m.UID = nil, "", "", ""
		if said := p.resolveOwners(m, byName); said != "" {
			p.notify(Notice{Doc: o.Doc, Line: o.FieldLine("metadata.ownerReferences"), Kind: kubeKindName(o.Kind()), Name: m.Name, Code: NoticeLive,
				Message: "cluster output: " + said})
		}
		eachTime(reflect.ValueOf(o.Obj), func(t *metav1.Time) {
			if t.Time.After(latest) {
				latest = t.Time
			}
		})
		if pod, ok := o.Obj.(*corev1.Pod); ok && pod.Spec.NodeName != "" && !contains(nodes, pod.Spec.NodeName) {
			nodes = append(nodes, pod.Spec.NodeName)
		}
	}
	o := s.Objects[first]
	p.notify(Notice{Doc: o.Doc, Line: o.Line, Code: NoticeLive,
		Message: "cluster output is the initial state of the cluster (" + countObjects(count) + "): status, generation and revisions kept " +
			"(pods keep their phase and readiness); owner references resolved by kind and name; uid replaced by a simulated one; " +
			"resourceVersion reset; managedFields dropped. Use spec-only to start from the specs instead"})
	p.profileFailingImages(s)
	p.fillRunning(s, nodes, latest)
	if !latest.IsZero() {
		shift := clock.Epoch.Sub(latest)
		for i := range s.Objects {
			if s.Objects[i].Live {
				eachTime(reflect.ValueOf(s.Objects[i].Obj), func(t *metav1.Time) {
					if !t.IsZero() {
						t.Time = t.Time.Add(shift)
					}
				})
			}
		}
		p.notify(Notice{Code: NoticeLive, Message: "cluster output: timestamps rebased so that the latest one (" +
			latest.UTC().Format(time.RFC3339) + ") is the start of the simulation; ages and conditions keep their distance to it"})
	}
	p.liveNodes(s, nodes)
}

// controllerOf returns the owner reference with controller: true, if any.
func controllerOf(m *metav1.ObjectMeta) *metav1.OwnerReference {
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// objectKeys returns the set of "Kind/namespace/name" of objs.
func objectKeys(objs []Object) map[string]bool {
	keys := make(map[string]bool, len(objs))
	for _, o := range objs {
		keys[kubeKindName(o.Kind())+"/"+objectNamespace(o)+"/"+objectName(o)] = true
	}
	return keys
}

// resolveOwners keeps the owner references whose owner is in the file (set-up
// points them at the owner's simulated UID), drops the others and says so.
func (p *parser) resolveOwners(m *metav1.ObjectMeta, inFile map[string]bool) string {
	var said string
	kept := m.OwnerReferences[:0:0]
	for _, ref := range m.OwnerReferences {
		if inFile[ref.Kind+"/"+m.Namespace+"/"+ref.Name] {
			kept = append(kept, ref)
			continue
		}
		said += "owner " + ref.Kind + "/" + ref.Name + " is not in the file: its ownerReference is dropped and the object starts as an orphan. "
	}
	if len(kept) == 0 {
		kept = nil
	}
	m.OwnerReferences = kept
	return strings.TrimSpace(said)
}

// liveNodes makes the nodes pasted pods run on part of the cluster: they
// replace the default nodes, or are added to the nodes the Scenario names.
func (p *parser) liveNodes(s *Scenario, nodes []string) {
	if len(nodes) == 0 {
		return
	}
	var added []string
	if !p.nodesGiven {
		s.Cluster.Nodes = nil
	}
	for _, n := range nodes {
		if !contains(s.Cluster.Nodes, n) {
			s.Cluster.Nodes = append(s.Cluster.Nodes, n)
			added = append(added, n)
		}
	}
	if len(added) == 0 {
		return
	}
	sort.Strings(added)
	msg := "cluster output: the pods' node(s) " + strings.Join(added, ", ")
	if p.nodesGiven {
		msg += " are added to the cluster's nodes"
	} else {
		if len(s.Cluster.Nodes) == 1 {
			msg += " is the cluster's only node (spec.cluster.nodes was not given)"
		} else {
			msg += " are the cluster's " + strconv.Itoa(len(s.Cluster.Nodes)) + " nodes (spec.cluster.nodes was not given)"
		}
	}
	p.notify(Notice{Code: NoticeLive, Message: msg})
}

// metaOf returns the object's metadata. It is read and written as a struct,
// not through the metav1.Object interface: calling that interface's setters
// would make the wasm linker keep them on every API type (about 25 kB).
func metaOf(o Object) *metav1.ObjectMeta {
	switch obj := o.Obj.(type) {
	case *appsv1.Deployment:
		return &obj.ObjectMeta
	case *appsv1.ReplicaSet:
		return &obj.ObjectMeta
	case *corev1.Pod:
		return &obj.ObjectMeta
	}
	return &metav1.ObjectMeta{}
}

var metaTimeType = reflect.TypeFor[metav1.Time]()

// eachTime calls fn with every metav1.Time inside v (a pointer to a typed
// object): metadata, status conditions, container states.
func eachTime(v reflect.Value, fn func(*metav1.Time)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			eachTime(v.Elem(), fn)
		}
	case reflect.Struct:
		if v.Type() == metaTimeType {
			fn(v.Addr().Interface().(*metav1.Time))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				eachTime(v.Field(i), fn)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			eachTime(v.Index(i), fn)
		}
	}
}

// countObjects says "1 object" or "n objects".
func countObjects(n int) string {
	if n == 1 {
		return "1 object"
	}
	return strconv.Itoa(n) + " objects"
}
