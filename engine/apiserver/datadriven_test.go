package apiserver

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
)

// TestScenarios runs the golden files in testdata/scenarios. Commands:
//
//	create [actor=A]                      <YAML object>        prints a summary or the error
//	update|status res=R name=N [ns=] [rv=V|none] [actor=A]     <YAML merge patch on the stored object>
//	delete res=R name=N [ns=] [policy=P] [orphan=true|false] [grace=S] [uid=U] [rv=V] [actor=A]
//	get res=R name=N [ns=] [yaml]        summary (or the whole object)
//	list res=R [ns=] [selector=k=v]
//	adopt res=R name=N owner=R2/N2 [uid=U]   release res=R name=N owner=R2/N2 [uid=U]
//	remove-finalizer res=R name=N finalizer=F
//	scale res=R name=N replicas=K         a patch of the scale subresource
//	dependents owner=R/N
//	advance by=D                          moves the virtual clock
//	watch                                 watch events since the last "watch"
//	trace                                 trace records since the last "trace"
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		env := newTestEnv()
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return env.run(t, d)
		})
	})
}

func arg(d *datadriven.TestData, key, def string) string {
	if v, ok := d.Arg(key); ok {
		return v
	}
	return def
}

func (e *testEnv) ownerRef(t *testing.T, d *datadriven.TestData) Object {
	res, name, _ := strings.Cut(arg(d, "owner", ""), "/")
	o, err := e.srv.Get(Resource(res), arg(d, "ns", "default"), name)
	if err != nil {
		d.Fatalf(t, "owner: %v", err)
	}
	return o
}

func (e *testEnv) run(t *testing.T, d *datadriven.TestData) string {
	actor := arg(d, "actor", "kubectl")
	res := Resource(arg(d, "res", ""))
	ns, name := arg(d, "ns", "default"), arg(d, "name", "")
	result := func(o Object, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		if _, gerr := e.srv.Get(res, o.GetNamespace(), o.GetName()); gerr != nil {
			return "gone: " + summary(res, o)
		}
		return summary(res, o)
	}
	switch d.Cmd {
	case "create":
		o, err := e.apply(actor, "create", d.Input)
		if err == nil {
			res = kindOf(o)
		}
		return result(o, err)
	case "update", "status":
		return result(e.edit(actor, d.Cmd, res, ns, name, arg(d, "rv", ""), d.Input))
	case "delete":
		var opts DeleteOptions
		if p, ok := d.Arg("policy"); ok {
			pol := metav1.DeletionPropagation(p)
			opts.PropagationPolicy = &pol
		}
		if o, ok := d.Arg("orphan"); ok {
			v := o == "true"
			opts.OrphanDependents = &v
		}
		if g, ok := d.Arg("grace"); ok {
			v, _ := strconv.ParseInt(g, 10, 64)
			opts.GracePeriodSeconds = &v
		}
		if u, ok := d.Arg("uid"); ok {
			opts.Preconditions = &metav1.Preconditions{}
			uid := types.UID(u)
			opts.Preconditions.UID = &uid
		}
		if rv, ok := d.Arg("rv"); ok {
			if opts.Preconditions == nil {
				opts.Preconditions = &metav1.Preconditions{}
			}
			opts.Preconditions.ResourceVersion = &rv
		}
		if err := e.srv.Delete(actor, res, ns, name, opts); err != nil {
			return "error: " + err.Error()
		}
		o, err := e.srv.Get(res, ns, name)
		if err != nil {
			return "gone"
		}
		return summary(res, o)
	case "get":
		o, err := e.srv.Get(res, ns, name)
		if err != nil {
			return "error: " + err.Error()
		}
		if d.HasArg("yaml") {
			return objectYAML(o)
		}
		return summary(res, o)
	case "list":
		sel := labels.Everything()
		if s, ok := d.Arg("selector"); ok {
			var err error
			if sel, err = labels.Parse(s); err != nil {
				d.Fatalf(t, "%v", err)
			}
		}
		var b strings.Builder
		lns := arg(d, "ns", "")
		each := func(o Object) { b.WriteString(summary(res, o) + "\n") }
		switch res {
		case Pods:
			for _, o := range e.srv.ListPods(lns, sel) {
				each(o)
			}
		case ReplicaSets:
			for _, o := range e.srv.ListReplicaSets(lns, sel) {
				each(o)
			}
		case Deployments:
			for _, o := range e.srv.ListDeployments(lns, sel) {
				each(o)
			}
		case Nodes:
			for _, o := range e.srv.ListNodes("", sel) {
				each(o)
			}
		case Events:
			for _, o := range e.srv.ListEvents(lns) {
				fmt.Fprintf(&b, "events %s/%s rv=%s %s %s\n", o.Namespace, o.Name, o.ResourceVersion, o.Reason, o.Message)
			}
		}
		if b.Len() == 0 {
			return "(none)"
		}
		return b.String()
	case "adopt", "release":
		owner := e.ownerRef(t, d)
		cur, err := e.srv.Get(res, ns, name)
		if err != nil {
			return "error: " + err.Error()
		}
		uid := types.UID(arg(d, "uid", string(cur.GetUID())))
		if d.Cmd == "release" {
			return result(e.srv.ReleaseObject(actor, res, ns, name, uid, owner.GetUID()))
		}
		yes := true
		ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: kindOf(owner).Kind(), Name: owner.GetName(), UID: owner.GetUID(), Controller: &yes, BlockOwnerDeletion: &yes}
		return result(e.srv.AdoptObject(actor, res, ns, name, uid, ref))
	case "scale":
		n, _ := strconv.ParseInt(arg(d, "replicas", "0"), 10, 32)
		o, err := e.srv.PatchScale(actor, res, ns, name, int32(n))
		if err != nil {
			return "error: " + err.Error()
		}
		return summary(res, o) + " replicas=" + strconv.Itoa(int(replicasOf(o)))
	case "remove-finalizer":
		return result(e.srv.RemoveFinalizer(actor, res, ns, name, arg(d, "finalizer", "")))
	case "dependents":
		var b strings.Builder
		for _, r := range e.srv.Dependents(e.ownerRef(t, d).GetUID()) {
			b.WriteString(r.String() + "\n")
		}
		if b.Len() == 0 {
			return "(none)"
		}
		return b.String()
	case "advance":
		e.clock.Advance(parseDuration(arg(d, "by", "0s")))
		return "now=" + e.clock.Elapsed().String()
	case "watch":
		if s := e.newWatch(); s != "" {
			return s
		}
		return "(none)"
	case "trace":
		if s := e.newTrace(); s != "" {
			return s
		}
		return "(none)"
	}
	d.Fatalf(t, "unknown command %q", d.Cmd)
	return ""
}

// replicasOf returns spec.replicas of a Deployment or ReplicaSet.
func replicasOf(o Object) int32 {
	switch obj := o.(type) {
	case *appsv1.Deployment:
		return *obj.Spec.Replicas
	case *appsv1.ReplicaSet:
		return *obj.Spec.Replicas
	}
	return -1
}

// kindOf returns the resource storing o's Go type.
func kindOf(o Object) Resource {
	switch o.(type) {
	case *corev1.Pod:
		return Pods
	case *appsv1.ReplicaSet:
		return ReplicaSets
	case *appsv1.Deployment:
		return Deployments
	case *corev1.Node:
		return Nodes
	}
	return Events
}
