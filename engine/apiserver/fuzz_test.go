package apiserver

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/rng"
)

// FuzzObjectMutations applies a random sequence of requests (creates,
// mutated updates and status writes, deletes with random options, patches)
// to Deployments, ReplicaSets and Pods. The server must not panic, every
// error must be an API status, and the watch log's RVs must increase.
func FuzzObjectMutations(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3, 42} {
		f.Add(seed, uint8(60))
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps uint8) {
		e := newTestEnv()
		r := rng.New(seed).Stream("fuzz")
		names := []string{"a", "b", "Bad_Name", ""}
		pick := func(n int) int { return r.Intn(n) }
		i32 := func() *int32 { v := int32(pick(7) - 2); return &v }
		sel := func() *metav1.LabelSelector {
			switch pick(4) {
			case 0:
				return nil
			case 1:
				return &metav1.LabelSelector{}
			}
			return &metav1.LabelSelector{MatchLabels: map[string]string{"app": []string{"x", "y", "bad value!"}[pick(3)]}}
		}
		tmpl := func() corev1.PodTemplateSpec {
			t := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": []string{"x", "y"}[pick(2)]}}}
			for n := pick(3); n > 0; n-- {
				t.Spec.Containers = append(t.Spec.Containers, corev1.Container{Name: []string{"c", "C_1", ""}[pick(3)], Image: []string{"nginx", ""}[pick(2)]})
			}
			t.Spec.RestartPolicy = []corev1.RestartPolicy{"", "Always", "Never", "Bogus"}[pick(4)]
			return t
		}
		ios := func() *intstr.IntOrString {
			v := []intstr.IntOrString{intstr.FromInt32(0), intstr.FromInt32(-1), intstr.FromString("25%"), intstr.FromString("x"), intstr.FromString("150%")}[pick(5)]
			if pick(4) == 0 {
				return nil
			}
			return &v
		}
		meta := func() metav1.ObjectMeta {
			m := metav1.ObjectMeta{Name: names[pick(len(names))], Namespace: "default"}
			if m.Name == "" {
				m.GenerateName = "gen-"
			}
			if pick(5) == 0 {
				m.Finalizers = []string{"example.com/f"}
			}
			return m
		}
		check := func(err error) {
			if err == nil {
				return
			}
			if _, ok := err.(apierrors.APIStatus); !ok {
				t.Fatalf("error %T is not an API status: %v", err, err)
			}
		}
		for s := 0; s < int(steps); s++ {
			name := names[pick(2)]
			switch pick(10) {
			case 0:
				d := &appsv1.Deployment{ObjectMeta: meta(), Spec: appsv1.DeploymentSpec{Replicas: i32(), Selector: sel(), Template: tmpl(), MinReadySeconds: int32(pick(3))}}
				if pick(2) == 0 {
					d.Spec.Strategy = appsv1.DeploymentStrategy{Type: []appsv1.DeploymentStrategyType{"RollingUpdate", "Recreate", "Odd"}[pick(3)],
						RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: ios(), MaxUnavailable: ios()}}
				}
				_, err := e.srv.CreateDeployment("fuzz", d)
				check(err)
			case 1:
				rs := &appsv1.ReplicaSet{ObjectMeta: meta(), Spec: appsv1.ReplicaSetSpec{Replicas: i32(), Selector: sel(), Template: tmpl()}}
				_, err := e.srv.CreateReplicaSet("fuzz", rs)
				check(err)
			case 2:
				p := &corev1.Pod{ObjectMeta: meta(), Spec: tmpl().Spec}
				p.Spec.NodeName = []string{"", "n1"}[pick(2)]
				_, err := e.srv.CreatePod("fuzz", p)
				check(err)
			case 3:
				if d, err := e.srv.GetDeployment("default", name); err == nil {
					c := d.DeepCopy()
					c.Spec.Replicas, c.Spec.Selector = i32(), sel()
					if pick(2) == 0 {
						c.ResourceVersion = ""
					}
					c.Annotations = map[string]string{"k": names[pick(2)]}
					_, err = e.srv.UpdateDeployment("fuzz", c)
					check(err)
				}
			case 4:
				if rs, err := e.srv.GetReplicaSet("default", name); err == nil {
					c := rs.DeepCopy()
					c.Status.Replicas, c.Status.ReadyReplicas = *i32(), *i32()
					_, err = e.srv.UpdateReplicaSetStatus("fuzz", c)
					check(err)
				}
			case 5:
				if p, err := e.srv.GetPod("default", name); err == nil {
					c := p.DeepCopy()
					c.Spec.Containers[0].Image = "nginx:2"
					c.Finalizers = nil
					if pick(2) == 0 {
						c.Spec.Containers = append(c.Spec.Containers, corev1.Container{Name: "extra", Image: "x"})
					}
					_, err = e.srv.UpdatePod("fuzz", c)
					check(err)
				}
			case 6, 7:
				res := []Resource{Pods, ReplicaSets, Deployments}[pick(3)]
				var opts DeleteOptions
				if pick(2) == 0 {
					p := []metav1.DeletionPropagation{"Orphan", "Foreground", "Background", "Wrong"}[pick(4)]
					opts.PropagationPolicy = &p
				}
				if pick(2) == 0 {
					g := int64(pick(5) - 1)
					opts.GracePeriodSeconds = &g
				}
				if pick(4) == 0 {
					uid := types.UID("nope")
					opts.Preconditions = &metav1.Preconditions{UID: &uid}
				}
				check(e.srv.Delete("fuzz", res, "default", name, opts))
			case 8:
				res := []Resource{Pods, ReplicaSets}[pick(2)]
				yes := pick(2) == 0
				ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "a", UID: types.UID(names[pick(2)]), Controller: &yes}
				var uid types.UID
				if o, err := e.srv.Get(res, "default", name); err == nil && pick(3) > 0 {
					uid = o.GetUID()
				}
				_, err := e.srv.AdoptObject("fuzz", res, "default", name, uid, ref)
				check(err)
				_, err = e.srv.ReleaseObject("fuzz", res, "default", name, uid, ref.UID)
				check(err)
			case 9:
				_, err := e.srv.RemoveFinalizer("fuzz", []Resource{Pods, ReplicaSets, Deployments}[pick(3)], "default", name, "example.com/f")
				check(err)
			}
		}
		var last uint64
		for _, ev := range e.srv.WatchLog() {
			if ev.RV <= last {
				t.Fatalf("watch RVs not increasing: %d after %d", ev.RV, last)
			}
			last = ev.RV
		}
	})
}
