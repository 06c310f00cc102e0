package scenario

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/kubelet"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// Pasted pods that are failing tell how their image behaves. A pod stuck in
// ImagePullBackOff keeps the rollout that created it stuck: simulated with
// the default image profile, its containers would start and the rollout
// would finish, the opposite of what the cluster is doing.
//
// The kubelet model gives a pod the profile of its first container's image
// (kubelet.ImageProfile), so that is the image a failing pod profiles,
// whichever of its containers (init containers included) is waiting. A
// profile holds for every pod of the image, so an image that some pasted
// pod runs ready is left alone: one pod crash-looping on a bad node does
// not make a healthy image crash-loop everywhere.

// pullFailures are the waiting reasons of a container whose image cannot
// be pulled.
var pullFailures = map[string]bool{"ImagePullBackOff": true, "ErrImagePull": true, "InvalidImageName": true, "ErrImageNeverPull": true}

// failingImage is what the first failing pasted pod of an image says.
type failingImage struct {
	obj       Object
	pod       *corev1.Pod
	container string
	reason    string
}

// profileFailingImages gives the image of each live pod that is failing
// (a container waiting in ImagePullBackOff or a pull error, or in
// CrashLoopBackOff) the matching profile, unless spec.cluster.images gives
// it one or a live pod of the image is ready without having restarted,
// and says so at the first such pod.
func (p *parser) profileFailingImages(s *Scenario) {
	ready := map[string]bool{}
	failing := map[string]*failingImage{}
	var order []string
	for _, o := range s.Objects {
		pod, ok := o.Obj.(*corev1.Pod)
		if !o.Live || !ok || len(pod.Spec.Containers) == 0 {
			continue
		}
		image := pod.Spec.Containers[0].Image
		if podutil.IsPodReady(pod) && !restarted(pod) {
			ready[image] = true
		}
		if failing[image] != nil {
			continue
		}
		if c, reason := waitingFailure(pod); reason != "" {
			failing[image] = &failingImage{obj: o, pod: pod, container: c, reason: reason}
			order = append(order, image)
		}
	}
	for _, image := range order {
		f := failing[image]
		if _, given := s.Cluster.Images[image]; given || ready[image] {
			continue
		}
		prof := s.Cluster.DefaultImage
		what := "crash-looping (its containers exit after " + prof.CrashAfter.String() + " and restart with the kubelet's back-off)"
		if pullFailures[f.reason] {
			prof.PullError = true
			what = "failing to pull (its pods stay Pending in ImagePullBackOff)"
		} else {
			prof.CrashLoop = true
		}
		if s.Cluster.Images == nil {
			s.Cluster.Images = map[string]kubelet.ImageProfile{}
		}
		s.Cluster.Images[image] = prof
		p.notify(Notice{Doc: f.obj.Doc, Line: f.obj.FieldLine("status"), Kind: "Pod", Name: f.pod.Name, Code: NoticeLive,
			Message: "cluster output: container " + f.container + " is in " + f.reason + " and no pasted pod of image " + image +
				" is ready, so its pods are simulated as " + what + "; to simulate them otherwise, give the image a profile in spec.cluster.images"})
	}
}

// waitingFailure returns the first container (init containers first) of
// pod waiting in a pull failure or CrashLoopBackOff, and the reason.
func waitingFailure(pod *corev1.Pod) (container, reason string) {
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for _, cs := range list {
			if w := cs.State.Waiting; w != nil && (pullFailures[w.Reason] || w.Reason == "CrashLoopBackOff") {
				return cs.Name, w.Reason
			}
		}
	}
	return "", ""
}

// restarted reports whether a container of pod has exited and restarted:
// a crash-looping container without a readiness probe is Ready between
// its back-offs, so such a pod does not show its image to be healthy.
func restarted(pod *corev1.Pod) bool {
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.RestartCount > 0 && cs.LastTerminationState.Terminated != nil {
			return true
		}
	}
	return false
}
