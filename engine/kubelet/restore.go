package kubelet

import (
	corev1 "k8s.io/api/core/v1"
)

// resumeRestored takes over a pod that appeared already running: one a
// scenario restored from pasted cluster output with its status. The model
// continues from the pasted state instead of starting the pod again: a
// ready pod stays ready, a running pod that is not ready becomes ready (or
// crashes, or never does) as its image profile says, counting from now, and
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
	if n := k.nodes[p.node]; n != nil {
		n.pods++
	}
	if podReady(pod) {
		p.stage = stageReady
		p.gen++
		return true
	}
	p.stage = stageRunning
	prof := k.cfg.Profile(p.image)
	switch {
	case prof.CrashLoop:
		k.schedulePod(p, k.rand.Jitter(prof.CrashAfter, prof.Jitter), actCrash)
	case prof.NeverReady:
		p.gen++
	default:
		k.schedulePod(p, k.readyDelay(p), actReady)
	}
	return true
}

// podReady reports whether the pod's Ready condition is True.
func podReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
