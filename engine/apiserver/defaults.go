package apiserver

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Default values applied the way the v1.36.3 API server's apps/v1 and core/v1
// defaulting does, on create and on update (so templates compare equal).
const (
	defaultReplicas                   int32 = 1
	defaultRevisionHistoryLimit       int32 = 10
	defaultProgressDeadlineSeconds    int32 = 600
	defaultTerminationGracePeriodSecs int64 = 30
	defaultSchedulerName                    = "default-scheduler"
	defaultTerminationMessagePath           = "/dev/termination-log"
	defaultRollingPercent                   = "25%"
)

func defaultDeployment(d *appsv1.Deployment) {
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = ptrTo(defaultReplicas)
	}
	st := &d.Spec.Strategy
	if st.Type == "" {
		st.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if st.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if st.RollingUpdate == nil {
			st.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		if st.RollingUpdate.MaxUnavailable == nil {
			v := intstr.FromString(defaultRollingPercent)
			st.RollingUpdate.MaxUnavailable = &v
		}
		if st.RollingUpdate.MaxSurge == nil {
			v := intstr.FromString(defaultRollingPercent)
			st.RollingUpdate.MaxSurge = &v
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = ptrTo(defaultRevisionHistoryLimit)
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = ptrTo(defaultProgressDeadlineSeconds)
	}
	defaultPodSpec(&d.Spec.Template.Spec)
}

func defaultReplicaSet(rs *appsv1.ReplicaSet) {
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = ptrTo(defaultReplicas)
	}
	defaultPodSpec(&rs.Spec.Template.Spec)
}

// defaultPod applies the pod-only defaults on top of the pod spec defaults.
func defaultPod(p *corev1.Pod) {
	defaultPodSpec(&p.Spec)
	if p.Spec.EnableServiceLinks == nil {
		p.Spec.EnableServiceLinks = ptrTo(corev1.DefaultEnableServiceLinks)
	}
	// A limit without a request makes the request equal the limit.
	for i := range p.Spec.Containers {
		r := &p.Spec.Containers[i].Resources
		for name, q := range r.Limits {
			if _, ok := r.Requests[name]; !ok {
				if r.Requests == nil {
					r.Requests = corev1.ResourceList{}
				}
				r.Requests[name] = q.DeepCopy()
			}
		}
	}
}

func defaultPodSpec(s *corev1.PodSpec) {
	if s.RestartPolicy == "" {
		s.RestartPolicy = corev1.RestartPolicyAlways
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = ptrTo(defaultTerminationGracePeriodSecs)
	}
	if s.DNSPolicy == "" {
		s.DNSPolicy = corev1.DNSClusterFirst
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &corev1.PodSecurityContext{}
	}
	if s.SchedulerName == "" {
		s.SchedulerName = defaultSchedulerName
	}
	for i := range s.InitContainers {
		defaultContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i])
	}
}

func defaultContainer(c *corev1.Container) {
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = defaultTerminationMessagePath
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	if c.ImagePullPolicy == "" {
		if imageTag(c.Image) == "latest" {
			c.ImagePullPolicy = corev1.PullAlways
		} else {
			c.ImagePullPolicy = corev1.PullIfNotPresent
		}
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = corev1.ProtocolTCP
		}
	}
}

// imageTag returns the tag of an image reference: "latest" when the
// reference has neither tag nor digest, "" when it has only a digest.
//
// Examples: "nginx" -> "latest", "nginx:1.27" -> "1.27",
// "registry:5000/app" -> "latest", "nginx@sha256:ab" -> "".
func imageTag(image string) string {
	name, _, hasDigest := strings.Cut(image, "@")
	tag := ""
	if i := strings.LastIndexByte(name, ':'); i >= 0 && !strings.Contains(name[i+1:], "/") {
		tag = name[i+1:]
	}
	if tag == "" && !hasDigest {
		return "latest"
	}
	return tag
}

// podQOSClass classifies a pod the way the API server fills status.qosClass
// on create: BestEffort without any request or limit, Guaranteed when every
// container limits cpu and memory with requests equal to limits, Burstable
// otherwise.
func podQOSClass(p *corev1.Pod) corev1.PodQOSClass {
	any, guaranteed := false, true
	for _, c := range p.Spec.Containers {
		r := c.Resources
		if len(r.Requests) > 0 || len(r.Limits) > 0 {
			any = true
		}
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			l, okL := r.Limits[name]
			q, okR := r.Requests[name]
			if !okL || (okR && q.Cmp(l) != 0) {
				guaranteed = false
			}
		}
	}
	switch {
	case !any:
		return corev1.PodQOSBestEffort
	case guaranteed:
		return corev1.PodQOSGuaranteed
	}
	return corev1.PodQOSBurstable
}

func ptrTo[T any](v T) *T { return &v }
