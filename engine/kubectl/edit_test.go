package kubectl

import (
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func intOrStr(s string) *intstr.IntOrString {
	v := intstr.Parse(s)
	return &v
}

// twoContainers is deployment(3) in namespace shop with a second container
// "log" and an init container "setup".
func twoContainers() *appsv1.Deployment {
	d := deployment(3)
	d.Namespace = "shop"
	spec := &d.Spec.Template.Spec
	spec.Containers = append(spec.Containers, corev1.Container{Name: "log", Image: "busybox:1", Env: []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}}})
	spec.InitContainers = []corev1.Container{{Name: "setup", Image: "busybox:1"}}
	return d
}

// TestEditActions runs each Deployment edit on a fresh shop/web and checks
// kubectl's reply or the error, then the stored field.
func TestEditActions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		do      func(k *Kubectl) (string, error)
		want    string // reply, or a substring of the error when wantErr
		wantErr bool
		check   func(d *appsv1.Deployment) bool
	}{
		{name: "set image of one container", do: func(k *Kubectl) (string, error) { return k.SetImage("shop", "web", "log", "busybox:2") },
			want: "deployment.apps/web image updated",
			check: func(d *appsv1.Deployment) bool {
				cs := d.Spec.Template.Spec.Containers
				return cs[0].Image == "nginx:1.25" && cs[1].Image == "busybox:2"
			}},
		{name: "set image of an init container", do: func(k *Kubectl) (string, error) { return k.SetImage("shop", "web", "setup", "busybox:3") },
			want:  "deployment.apps/web image updated",
			check: func(d *appsv1.Deployment) bool { return d.Spec.Template.Spec.InitContainers[0].Image == "busybox:3" }},
		{name: "set image needs a container name", do: func(k *Kubectl) (string, error) { return k.SetImage("shop", "web", "", "x:1") },
			want: "container: required when the pod template has more than one container (containers: setup, web, log)", wantErr: true},
		{name: "set image unknown container", do: func(k *Kubectl) (string, error) { return k.SetImage("shop", "web", "nope", "x:1") },
			want: `unable to find container named "nope" (containers: setup, web, log)`, wantErr: true},
		{name: "set image every container", do: func(k *Kubectl) (string, error) { return k.SetImage("shop", "web", "*", "x:1") },
			want: "deployment.apps/web image updated",
			check: func(d *appsv1.Deployment) bool {
				s := d.Spec.Template.Spec
				return s.Containers[0].Image == "x:1" && s.Containers[1].Image == "x:1" && s.InitContainers[0].Image == "x:1"
			}},
		{name: "maxSurge percent", do: func(k *Kubectl) (string, error) { return k.SetRollingUpdate("shop", "web", intOrStr("50%"), nil) },
			want: "deployment.apps/web patched",
			check: func(d *appsv1.Deployment) bool {
				ru := d.Spec.Strategy.RollingUpdate
				return ru.MaxSurge.String() == "50%" && ru.MaxUnavailable.String() == "25%"
			}},
		{name: "maxSurge and maxUnavailable ints", do: func(k *Kubectl) (string, error) {
			return k.SetRollingUpdate("shop", "web", intOrStr("2"), intOrStr("0"))
		},
			want: "deployment.apps/web patched",
			check: func(d *appsv1.Deployment) bool {
				ru := d.Spec.Strategy.RollingUpdate
				return *ru.MaxSurge == intstr.FromInt32(2) && *ru.MaxUnavailable == intstr.FromInt32(0)
			}},
		{name: "rolling update unchanged", do: func(k *Kubectl) (string, error) { return k.SetRollingUpdate("shop", "web", intOrStr("25%"), nil) },
			want: "deployment.apps/web patched (no change)"},
		{name: "maxSurge malformed", do: func(k *Kubectl) (string, error) { return k.SetRollingUpdate("shop", "web", intOrStr("3x"), nil) },
			want: `spec.strategy.rollingUpdate.maxSurge: Invalid value: "3x"`, wantErr: true},
		{name: "both zero", do: func(k *Kubectl) (string, error) {
			return k.SetRollingUpdate("shop", "web", intOrStr("0"), intOrStr("0"))
		},
			want: "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0", wantErr: true},
		{name: "maxUnavailable over 100%", do: func(k *Kubectl) (string, error) { return k.SetRollingUpdate("shop", "web", nil, intOrStr("150%")) },
			want: "must not be greater than 100%", wantErr: true},
		{name: "to Recreate clears rollingUpdate", do: func(k *Kubectl) (string, error) {
			return k.SetStrategy("shop", "web", appsv1.RecreateDeploymentStrategyType, nil, nil)
		},
			want: "deployment.apps/web patched",
			check: func(d *appsv1.Deployment) bool {
				return d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType && d.Spec.Strategy.RollingUpdate == nil
			}},
		{name: "Recreate with maxSurge is refused", do: func(k *Kubectl) (string, error) {
			return k.SetStrategy("shop", "web", appsv1.RecreateDeploymentStrategyType, intOrStr("1"), nil)
		},
			want: "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'", wantErr: true},
		{name: "unknown strategy", do: func(k *Kubectl) (string, error) { return k.SetStrategy("shop", "web", "BlueGreen", nil, nil) },
			want: `spec.strategy: Unsupported value`, wantErr: true},
		{name: "minReadySeconds", do: func(k *Kubectl) (string, error) { return k.SetMinReadySeconds("shop", "web", 10) },
			want: "deployment.apps/web patched", check: func(d *appsv1.Deployment) bool { return d.Spec.MinReadySeconds == 10 }},
		{name: "negative minReadySeconds", do: func(k *Kubectl) (string, error) { return k.SetMinReadySeconds("shop", "web", -1) },
			want: "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0", wantErr: true},
		{name: "minReadySeconds over the deadline", do: func(k *Kubectl) (string, error) { return k.SetMinReadySeconds("shop", "web", 600) },
			want: "spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds", wantErr: true},
		{name: "progressDeadlineSeconds", do: func(k *Kubectl) (string, error) { return k.SetProgressDeadline("shop", "web", 120) },
			want: "deployment.apps/web patched", check: func(d *appsv1.Deployment) bool { return *d.Spec.ProgressDeadlineSeconds == 120 }},
		{name: "progressDeadlineSeconds 0", do: func(k *Kubectl) (string, error) { return k.SetProgressDeadline("shop", "web", 0) },
			want: "spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds", wantErr: true},
		{name: "resources", do: func(k *Kubectl) (string, error) {
			return k.SetResources("shop", "web", "web", corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}, corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("64Mi")})
		},
			want: "deployment.apps/web resource requirements updated",
			check: func(d *appsv1.Deployment) bool {
				r := d.Spec.Template.Spec.Containers[0].Resources
				return r.Requests.Cpu().String() == "250m" && r.Limits.Memory().String() == "64Mi" && len(d.Spec.Template.Spec.Containers[1].Resources.Requests) == 0
			}},
		{name: "resources unknown container", do: func(k *Kubectl) (string, error) { return k.SetResources("shop", "web", "db", nil, nil) },
			want: `unable to find container named "db"`, wantErr: true},
		{name: "env set, replace and remove", do: func(k *Kubectl) (string, error) {
			return k.SetEnv("shop", "web", "log", []EnvChange{{Name: "A", Remove: true}, {Name: "B", Value: "20"}, {Name: "C", Value: "3"}})
		},
			want: "deployment.apps/web env updated",
			check: func(d *appsv1.Deployment) bool {
				env := d.Spec.Template.Spec.Containers[1].Env
				return len(env) == 2 && env[0] == corev1.EnvVar{Name: "B", Value: "20"} && env[1] == corev1.EnvVar{Name: "C", Value: "3"}
			}},
		{name: "edit in the wrong namespace", do: func(k *Kubectl) (string, error) { return k.SetMinReadySeconds("default", "web", 1) },
			want: `deployments.apps "web" not found`, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, srv, _ := newEnv()
			if _, err := k.Apply(twoContainers()); err != nil {
				t.Fatal(err)
			}
			before, _ := srv.GetDeployment("shop", "web")
			got, err := tc.do(k)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.want)
				}
				if after, _ := srv.GetDeployment("shop", "web"); after.ResourceVersion != before.ResourceVersion {
					t.Fatal("a refused edit changed the Deployment")
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
			d, _ := srv.GetDeployment("shop", "web")
			if tc.check != nil && !tc.check(d) {
				t.Fatalf("stored spec: %+v", d.Spec)
			}
		})
	}
}

func TestContainerErrorsAreTyped(t *testing.T) {
	k, _, _ := newEnv()
	if _, err := k.Apply(twoContainers()); err != nil {
		t.Fatal(err)
	}
	if _, err := k.SetEnv("shop", "web", "", []EnvChange{{Name: "X", Value: "1"}}); !errors.Is(err, ErrContainerRequired) {
		t.Fatalf("err = %v", err)
	}
	if _, err := k.SetImage("shop", "web", "nope", "x:1"); !errors.Is(err, ErrContainerNotFound) {
		t.Fatalf("err = %v", err)
	}
}
