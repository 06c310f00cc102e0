package apiserver

import (
	corev1 "k8s.io/api/core/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validation of pods and pod specs: the subset of the v1.36.3 rules that a
// scenario can trip over (containers, names, images, enums), with upstream
// paths and wording. Volumes, probes, resources and the like are accepted
// as given.

var (
	restartPolicies  = []string{string(corev1.RestartPolicyAlways), string(corev1.RestartPolicyOnFailure), string(corev1.RestartPolicyNever)}
	dnsPolicies      = []string{string(corev1.DNSClusterFirstWithHostNet), string(corev1.DNSClusterFirst), string(corev1.DNSDefault), string(corev1.DNSNone)}
	pullPolicies     = []string{string(corev1.PullAlways), string(corev1.PullIfNotPresent), string(corev1.PullNever)}
	messagePolicies  = []string{string(corev1.TerminationMessageReadFile), string(corev1.TerminationMessageFallbackToLogsOnError)}
	portProtocols    = []string{string(corev1.ProtocolSCTP), string(corev1.ProtocolTCP), string(corev1.ProtocolUDP)}
	podUpdateMessage = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"
)

func validatePodCreate(p *corev1.Pod) field.ErrorList {
	errs := validatePodCreateMeta(&p.ObjectMeta)
	return append(errs, validatePodSpec(&p.Spec, specPath)...)
}

// validatePodSpec checks containers, then restartPolicy and dnsPolicy. Every
// container needs an image, in a pod and in a Deployment's or ReplicaSet's
// pod template alike (the v1.36.3 server reports "Required value" at
// spec.template.spec.containers[i].image).
func validatePodSpec(s *corev1.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	// names holds the container names seen so far (a pod has a few: a
	// slice scan, no set).
	names := make([]string, 0, 4)
	for i := range s.InitContainers {
		errs = append(errs, validateContainer(&s.InitContainers[i], containerPath{p, "initContainers", i}, &names)...)
	}
	if len(s.Containers) == 0 {
		errs = append(errs, field.Required(p.Child("containers"), ""))
	}
	for i := range s.Containers {
		errs = append(errs, validateContainer(&s.Containers[i], containerPath{p, "containers", i}, &names)...)
	}
	if !contains(restartPolicies, string(s.RestartPolicy)) {
		errs = append(errs, field.NotSupported(p.Child("restartPolicy"), s.RestartPolicy, restartPolicies))
	}
	if !contains(dnsPolicies, string(s.DNSPolicy)) {
		errs = append(errs, field.NotSupported(p.Child("dnsPolicy"), s.DNSPolicy, dnsPolicies))
	}
	if s.ActiveDeadlineSeconds != nil && *s.ActiveDeadlineSeconds <= 0 {
		errs = append(errs, field.Invalid(p.Child("activeDeadlineSeconds"), *s.ActiveDeadlineSeconds, "must be between 1 and 2147483647, inclusive"))
	}
	return errs
}

// containerPath names container i of list ("containers" or
// "initContainers") under spec; its field paths are built only for an
// error, since a valid container (nearly every one) needs none.
type containerPath struct {
	spec *field.Path
	list string
	i    int
}

// child returns the path of the container's field name.
func (cp containerPath) child(name string) *field.Path {
	return cp.spec.Child(cp.list).Index(cp.i).Child(name)
}

// validateContainer checks container c; names holds the names of the
// containers checked before it and gets c's.
func validateContainer(c *corev1.Container, p containerPath, names *[]string) field.ErrorList {
	var errs field.ErrorList
	switch {
	case c.Name == "":
		errs = append(errs, field.Required(p.child("name"), ""))
	case contains(*names, c.Name):
		errs = append(errs, field.Duplicate(p.child("name"), c.Name))
	default:
		if !isDNSLabel(c.Name) {
			for _, msg := range utilvalidation.IsDNS1123Label(c.Name) {
				errs = append(errs, field.Invalid(p.child("name"), c.Name, msg))
			}
		}
		*names = append(*names, c.Name)
	}
	if c.Image == "" {
		errs = append(errs, field.Required(p.child("image"), ""))
	}
	for i, port := range c.Ports {
		for _, msg := range utilvalidation.IsValidPortNum(int(port.ContainerPort)) {
			errs = append(errs, field.Invalid(p.child("ports").Index(i).Child("containerPort"), port.ContainerPort, msg))
		}
		if !contains(portProtocols, string(port.Protocol)) {
			errs = append(errs, field.NotSupported(p.child("ports").Index(i).Child("protocol"), port.Protocol, portProtocols))
		}
	}
	if !contains(messagePolicies, string(c.TerminationMessagePolicy)) {
		errs = append(errs, field.NotSupported(p.child("terminationMessagePolicy"), c.TerminationMessagePolicy, messagePolicies))
	}
	if !contains(pullPolicies, string(c.ImagePullPolicy)) {
		errs = append(errs, field.NotSupported(p.child("imagePullPolicy"), c.ImagePullPolicy, pullPolicies))
	}
	return errs
}

// validatePodUpdate allows only the mutable pod fields to change. Setting
// spec.nodeName on an unbound pod is accepted here as the stand-in for the
// binding subresource (see BindPod). The upstream message is followed by a
// diff of the spec, which is not reproduced. p is the server's own copy:
// its spec is changed during the check and put back.
func validatePodUpdate(p, old *corev1.Pod) field.ErrorList {
	errs := validateMetaUpdate(&p.ObjectMeta, &old.ObjectMeta, metaPath)
	if !passedAsStored(&p.ObjectMeta, &old.ObjectMeta) {
		errs = append(errs, validateMeta(&p.ObjectMeta, true, dnsSubdomainName, metaPath)...)
	}
	if len(p.Spec.Containers) != len(old.Spec.Containers) {
		return append(errs, field.Forbidden(specPath.Child("containers"), "pod updates may not add or remove containers"))
	}
	if old.ResourceVersion == "" || !specValidatedAsOld(&p.Spec, &old.Spec) {
		errs = append(errs, validatePodSpec(&p.Spec, specPath)...)
	}
	// Blank out what may change in p's spec (the server's own copy), require
	// the rest to be equal to old's, and put p's fields back. Only
	// top-level fields are assigned, and the containers' images on fresh
	// container slices; containers shared with old (a metadata patch or a
	// bind) are equal as they are.
	a, b := &p.Spec, &old.Spec
	containers, initContainers, tolerations := a.Containers, a.InitContainers, a.Tolerations
	deadline, nodeName, grace := a.ActiveDeadlineSeconds, a.NodeName, a.TerminationGracePeriodSeconds
	if !sameSlice(a.Containers, b.Containers) {
		a.Containers = append([]corev1.Container(nil), a.Containers...)
		for i := range a.Containers {
			a.Containers[i].Image = b.Containers[i].Image
		}
	}
	if len(a.InitContainers) == len(b.InitContainers) && len(a.InitContainers) > 0 && !sameSlice(a.InitContainers, b.InitContainers) {
		a.InitContainers = append([]corev1.Container(nil), a.InitContainers...)
		for i := range a.InitContainers {
			a.InitContainers[i].Image = b.InitContainers[i].Image
		}
	}
	a.ActiveDeadlineSeconds = b.ActiveDeadlineSeconds
	if b.NodeName == "" {
		a.NodeName = ""
	}
	if len(a.Tolerations) >= len(b.Tolerations) && semanticEqual(a.Tolerations[:len(b.Tolerations)], b.Tolerations) {
		a.Tolerations = b.Tolerations
	}
	if b.TerminationGracePeriodSeconds != nil && *b.TerminationGracePeriodSeconds < 0 &&
		a.TerminationGracePeriodSeconds != nil && *a.TerminationGracePeriodSeconds == 1 {
		a.TerminationGracePeriodSeconds = b.TerminationGracePeriodSeconds
	}
	equal := semanticEqual(a, b)
	a.Containers, a.InitContainers, a.Tolerations = containers, initContainers, tolerations
	a.ActiveDeadlineSeconds, a.NodeName, a.TerminationGracePeriodSeconds = deadline, nodeName, grace
	if !equal {
		errs = append(errs, field.Forbidden(specPath, podUpdateMessage))
	}
	return errs
}

// specValidatedAsOld reports whether validatePodSpec would find in s exactly
// what it found in the stored old spec (nothing): every field it checks is
// shared with or equal to old's.
func specValidatedAsOld(s, old *corev1.PodSpec) bool {
	return sameSlice(s.Containers, old.Containers) && sameSlice(s.InitContainers, old.InitContainers) &&
		s.RestartPolicy == old.RestartPolicy && s.DNSPolicy == old.DNSPolicy &&
		s.ActiveDeadlineSeconds == old.ActiveDeadlineSeconds
}

// sameSlice reports whether a and b are the same elements of the same
// backing array (two empty slices included).
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
