package apiserver

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// testEnv is a server with its clock and recorder, plus the cursors the
// golden tests use to print only what is new.
type testEnv struct {
	clock *clock.Clock
	rec   *trace.Recorder
	srv   *Server
	// names is the server's random stream (a test that restores the
	// server restores it too, as the simulation does).
	names    *rng.Stream
	watchPos int
	tracePos uint64
}

func newTestEnv() *testEnv {
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	names := rng.New(1).Stream("names")
	return &testEnv{clock: c, rec: rec, srv: New(c, names, rec), names: names}
}

// decode turns YAML into a typed object chosen by its kind.
func decode(doc string) (Object, error) {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
		return nil, err
	}
	var obj Object
	switch tm.Kind {
	case "Pod":
		obj = &corev1.Pod{}
	case "ReplicaSet":
		obj = &appsv1.ReplicaSet{}
	case "Deployment":
		obj = &appsv1.Deployment{}
	case "Node":
		obj = &corev1.Node{}
	case "Event":
		obj = &corev1.Event{}
	default:
		return nil, fmt.Errorf("unknown kind %q", tm.Kind)
	}
	if err := yaml.Unmarshal([]byte(doc), obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// apply sends doc with verb create, update or status.
func (e *testEnv) apply(actor, verb, doc string) (Object, error) {
	obj, err := decode(doc)
	if err != nil {
		return nil, err
	}
	s := e.srv
	switch o := obj.(type) {
	case *corev1.Pod:
		switch verb {
		case "create":
			return typedOut(s.CreatePod(actor, o))
		case "update":
			return typedOut(s.UpdatePod(actor, o))
		default:
			return typedOut(s.UpdatePodStatus(actor, o))
		}
	case *appsv1.ReplicaSet:
		switch verb {
		case "create":
			return typedOut(s.CreateReplicaSet(actor, o))
		case "update":
			return typedOut(s.UpdateReplicaSet(actor, o))
		default:
			return typedOut(s.UpdateReplicaSetStatus(actor, o))
		}
	case *appsv1.Deployment:
		switch verb {
		case "create":
			return typedOut(s.CreateDeployment(actor, o))
		case "update":
			return typedOut(s.UpdateDeployment(actor, o))
		default:
			return typedOut(s.UpdateDeploymentStatus(actor, o))
		}
	case *corev1.Node:
		switch verb {
		case "create":
			return typedOut(s.CreateNode(actor, o))
		case "update":
			return typedOut(s.UpdateNode(actor, o))
		default:
			return typedOut(s.UpdateNodeStatus(actor, o))
		}
	case *corev1.Event:
		return typedOut(s.CreateEvent(actor, o))
	}
	return nil, fmt.Errorf("unsupported object %T", obj)
}

func typedOut[T Object](o T, err error) (Object, error) {
	if err != nil {
		return nil, err
	}
	return o, nil
}

// edit applies a JSON merge patch (written as YAML) to a deep copy of the
// stored object and sends it with verb update or status. rv "" keeps the
// stored resourceVersion, "none" sends none, anything else is sent as is.
func (e *testEnv) edit(actor, verb string, res Resource, ns, name, rv, patch string) (Object, error) {
	cur, err := e.srv.Get(res, ns, name)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(cur)
	var doc map[string]any
	_ = json.Unmarshal(b, &doc)
	var p map[string]any
	if err := yaml.Unmarshal([]byte(patch), &p); err != nil {
		return nil, err
	}
	doc = mergePatch(doc, p).(map[string]any)
	doc["kind"] = res.Kind()
	meta := doc["metadata"].(map[string]any)
	switch rv {
	case "":
	case "none":
		delete(meta, "resourceVersion")
	default:
		meta["resourceVersion"] = rv
	}
	out, _ := json.Marshal(doc)
	return e.apply(actor, verb, string(out))
}

// mergePatch applies an RFC 7386 JSON merge patch.
func mergePatch(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	tm, ok := target.(map[string]any)
	if !ok {
		tm = map[string]any{}
	}
	for k, v := range pm {
		if v == nil {
			delete(tm, k)
		} else {
			tm[k] = mergePatch(tm[k], v)
		}
	}
	return tm
}

// newWatch renders the watch events since the last call, one per line.
func (e *testEnv) newWatch() string {
	var b strings.Builder
	log := e.srv.WatchLog()
	for _, ev := range log[e.watchPos:] {
		fmt.Fprintf(&b, "%s %s %s rv=%d\n", ev.Type, ev.Resource, objectKey(ev.Object.GetNamespace(), ev.Object.GetName()), ev.RV)
	}
	e.watchPos = len(log)
	return b.String()
}

// newTrace renders the trace records since the last call.
func (e *testEnv) newTrace() string {
	var b strings.Builder
	for _, r := range e.rec.Since(e.tracePos) {
		b.WriteString(r.Text() + "\n")
	}
	e.tracePos = uint64(e.rec.Len())
	return b.String()
}

// summary renders the metadata the tests care about on one line.
func summary(res Resource, o Object) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s rv=%s gen=%d", res, objectKey(o.GetNamespace(), o.GetName()), o.GetResourceVersion(), o.GetGeneration())
	if ts := o.GetDeletionTimestamp(); ts != nil {
		fmt.Fprintf(&b, " deletionTimestamp=%s", ts.Sub(clock.Epoch).String())
	}
	if g := o.GetDeletionGracePeriodSeconds(); g != nil {
		fmt.Fprintf(&b, " grace=%d", *g)
	}
	if f := o.GetFinalizers(); len(f) > 0 {
		fmt.Fprintf(&b, " finalizers=%s", strings.Join(f, ","))
	}
	var owners []string
	for _, r := range o.GetOwnerReferences() {
		s := r.Kind + "/" + r.Name
		if r.Controller != nil && *r.Controller {
			s += "(controller)"
		}
		if r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion {
			s += "(block)"
		}
		owners = append(owners, s)
	}
	sort.Strings(owners)
	if len(owners) > 0 {
		fmt.Fprintf(&b, " owners=%s", strings.Join(owners, ","))
	}
	return b.String()
}

// objectYAML renders an object as YAML without volatile noise.
func objectYAML(o Object) string {
	b, err := yaml.Marshal(o)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func parseDuration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return d
}
