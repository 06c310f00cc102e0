package scenario

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/kubelet"
)

// Pasted pods that are failing tell how their image behaves. A pod stuck in
// ImagePullBackOff keeps the rollout that created it stuck: simulated with
// the default image profile, its containers would start and the rollout
// would finish, the opposite of what the cluster is doing.

// pullFailures are the waiting reasons of a container whose image cannot
// be pulled.
var pullFailures = map[string]bool{"ImagePullBackOff": true, "ErrImagePull": true, "InvalidImageName": true, "ErrImageNeverPull": true}

// profileFailingImages gives each image that a live pod's container is
// failing with (waiting in ImagePullBackOff or a pull error, or in
// CrashLoopBackOff) the matching profile, unless spec.cluster.images gives
// it one, and says so at the first such pod.
func (p *parser) profileFailingImages(s *Scenario) {
	said := map[string]bool{}
	for _, o := range s.Objects {
		pod, ok := o.Obj.(*corev1.Pod)
		if !o.Live || !ok {
			continue
		}
		for _, cs := range pod.Status.ContainerStatuses {
			w := cs.State.Waiting
			if w == nil || (!pullFailures[w.Reason] && w.Reason != "CrashLoopBackOff") {
				continue
			}
			image := specImage(pod, cs.Name)
			if image == "" || said[image] {
				continue
			}
			if _, given := s.Cluster.Images[image]; given {
				continue
			}
			prof := s.Cluster.DefaultImage
			what := "crash-looping (its containers exit after " + prof.CrashAfter.String() + " and restart with the kubelet's back-off)"
			if pullFailures[w.Reason] {
				prof.PullError = true
				what = "failing to pull (its pods stay Pending in ImagePullBackOff)"
			} else {
				prof.CrashLoop = true
			}
			if s.Cluster.Images == nil {
				s.Cluster.Images = map[string]kubelet.ImageProfile{}
			}
			s.Cluster.Images[image] = prof
			said[image] = true
			p.notify(Notice{Doc: o.Doc, Line: o.FieldLine("status.containerStatuses"), Kind: "Pod", Name: pod.Name, Code: NoticeLive,
				Message: "cluster output: container " + cs.Name + " is in " + w.Reason + ", so image " + image + " is simulated as " + what +
					"; to simulate it otherwise, give it a profile in spec.cluster.images"})
		}
	}
}

// specImage is the image of the pod's container name in its spec ("" when
// there is none: the status names a container the spec does not have).
func specImage(pod *corev1.Pod, name string) string {
	for _, c := range pod.Spec.Containers {
		if c.Name == name {
			return c.Image
		}
	}
	return ""
}
