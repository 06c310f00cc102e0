package kubelet

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// resumeRestored takes over a pod that appeared already running: one a
// scenario restored from pasted cluster output with its status. The model
// continues from the pasted state instead of starting the pod again: a
// ready pod stays ready, a running pod that is not ready goes through the same run plan as a
// container that has just started (planRun: crash loop, or its probes
// against the image profile), counting from now, and
// a pod that has finished is left alone. It reports whether the pod was
// such a pod; pending pods go through the usual bind and start.
func (k *Kubelet) resumeRestored(p *podState, pod *corev1.Pod) bool {
	switch pod.Status.Phase {
	case corev1.PodSucceeded, corev1.PodFailed:
		p.stage = stageRunning
		p.gen++
		return true
	case corev1.PodRunning:
	default:
		return false
	}
	if p.node == "" {
		return false
	}
	for _, cs := range pod.Status.ContainerStatuses {
		p.restarts = max(p.restarts, cs.RestartCount)
	}
	k.place(p, p.node)
	if podutil.IsPodReady(pod) {
		p.stage = stageReady
		p.gen++
		return true
	}
	p.stage = stageRunning
	k.planRun(p, k.clock.Now())
	return true
}
