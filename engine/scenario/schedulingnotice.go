package scenario

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NoticeScheduling: a pod template or pod carries scheduling rules that
// the simulated scheduler does not apply.
const NoticeScheduling = "scheduling"

// schedulingMessage follows the fields a NoticeScheduling names.
const schedulingMessage = "not simulated: the simulated scheduler binds each pod to the ready node with the fewest pods " +
	"that required pod anti-affinity on kubernetes.io/hostname allows, and applies no other rule. " +
	"On a real cluster these rules can leave pods Pending and stall a rollout; this run does not show that"

// noteScheduling says which objects carry scheduling rules (affinity,
// nodeSelector, topologySpreadConstraints) in their pod spec, naming the
// fields and the earliest line of them: a pasted production manifest often has
// them, and the run places its pods as if they were not there. Pods and
// ReplicaSets a controller owns are left out (their owner's template is
// named).
func (p *parser) noteScheduling(s *Scenario) {
	for _, o := range s.Objects {
		spec, prefix, kind, meta := podSpecOf(o)
		if spec == nil || metav1.GetControllerOfNoCopy(meta) != nil {
			continue
		}
		fields := schedulingFields(spec)
		if len(fields) == 0 {
			continue
		}
		// The earliest line the file gives one of the fields at (a field
		// whose value is a flow map may have none of its own: then the
		// nearest enclosing one's, for the first).
		line := 0
		for i := range fields {
			fields[i] = prefix + fields[i]
			if l, ok := o.Lines[fields[i]]; ok && (line == 0 || l < line) {
				line = l
			}
		}
		if line == 0 {
			line = o.FieldLine(fields[0])
		}
		p.notify(Notice{Doc: o.Doc, Line: line, Kind: kind, Name: meta.GetName(), Code: NoticeScheduling,
			Message: strings.Join(fields, ", ") + ": " + schedulingMessage})
	}
}

// podSpecOf returns the pod spec of a Deployment's or ReplicaSet's
// template or of a Pod, the path it is at, the kind and the metadata; a
// nil spec for other objects.
func podSpecOf(o Object) (*corev1.PodSpec, string, string, metav1.Object) {
	switch x := o.Obj.(type) {
	case *appsv1.Deployment:
		return &x.Spec.Template.Spec, "spec.template.spec.", "Deployment", x
	case *appsv1.ReplicaSet:
		return &x.Spec.Template.Spec, "spec.template.spec.", "ReplicaSet", x
	case *corev1.Pod:
		return &x.Spec, "spec.", "Pod", x
	}
	return nil, "", "", nil
}

// schedulingFields names the scheduling rules spec sets that the simulated
// scheduler does not apply, in spec order: affinity's kinds (nodeAffinity,
// podAffinity, podAntiAffinity unless it is only required terms on the node
// topology), then
// nodeSelector (unless it only asks for Linux nodes, as many charts do,
// which every worker node of a Linux cluster is) and
// topologySpreadConstraints. Tolerations are not named: the simulated
// nodes have no taints, as most clusters' worker nodes.
func schedulingFields(spec *corev1.PodSpec) []string {
	var out []string
	if a := spec.Affinity; a != nil {
		if a.NodeAffinity != nil {
			out = append(out, "affinity.nodeAffinity")
		}
		if a.PodAffinity != nil {
			out = append(out, "affinity.podAffinity")
		}
		if a.PodAntiAffinity != nil && !onlyHostnameRequired(a.PodAntiAffinity) {
			out = append(out, "affinity.podAntiAffinity")
		}
	}
	if len(spec.NodeSelector) > 0 && !onlyLinux(spec.NodeSelector) {
		out = append(out, "nodeSelector")
	}
	if len(spec.TopologySpreadConstraints) > 0 {
		out = append(out, "topologySpreadConstraints")
	}
	return out
}

// onlyHostnameRequired reports whether pod anti-affinity has only required
// terms on the node topology, which the simulated scheduler applies
// (engine/kubelet/antiaffinity.go).
func onlyHostnameRequired(a *corev1.PodAntiAffinity) bool {
	if len(a.PreferredDuringSchedulingIgnoredDuringExecution) > 0 {
		return false
	}
	for _, t := range a.RequiredDuringSchedulingIgnoredDuringExecution {
		if t.TopologyKey != corev1.LabelHostname {
			return false
		}
	}
	return true
}

// onlyLinux reports whether a nodeSelector only asks for Linux nodes (by
// the OS label, or its beta name older charts still use).
func onlyLinux(sel map[string]string) bool {
	for k, v := range sel {
		if (k != corev1.LabelOSStable && k != "beta.kubernetes.io/os") || v != "linux" {
			return false
		}
	}
	return len(sel) > 0
}
