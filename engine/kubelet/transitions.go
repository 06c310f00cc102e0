package kubelet

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

const (
	// crashBackOffInitial and crashBackOffMax bound the kubelet's container
	// restart back-off, which doubles after every crash.
	crashBackOffInitial = 10 * time.Second
	crashBackOffMax     = 5 * time.Minute
)

func nowMeta(c *clock.Clock) metav1.Time { return metav1.NewTime(c.Now()) }

// Transition records one lifecycle change made by the model.
type Transition struct {
	// Actor is "scheduler", "kubelet" or "node-controller".
	Actor string `json:"actor"`
	Pod   string `json:"pod,omitempty"`
	Node  string `json:"node,omitempty"`
	Image string `json:"image,omitempty"`
	// What is the transition: bound, running, ready, unready, crashed,
	// killed (liveness probe), restarted, terminated, unschedulable,
	// node-failed, node-recovered, not-ready, evicted, image-profile,
	// failed.
	What   string `json:"what"`
	Detail string `json:"detail,omitempty"`
}

// Kind implements trace.Payload.
func (Transition) Kind() trace.Kind { return trace.KindKubelet }

// Text implements trace.Payload.
func (t Transition) Text() string {
	var b strings.Builder
	switch {
	case t.Pod != "":
		b.WriteString("pod " + t.Pod + " " + t.What)
	case t.Node != "":
		b.WriteString("node " + t.Node + " " + t.What)
	default:
		b.WriteString("image " + t.Image + " " + t.What)
	}
	if t.Pod != "" && t.Node != "" {
		b.WriteString(" on " + t.Node)
	}
	if t.Detail != "" {
		b.WriteString(" (" + t.Detail + ")")
	}
	return b.String()
}

func (k *Kubelet) emit(t Transition) {
	if t.Actor == "" {
		t.Actor = "kubelet"
	}
	t.emit(k.rec, t.Actor)
}

func splitKey(key string) (string, string) {
	ns, name, _ := strings.Cut(key, "/")
	return ns, name
}

// freshPod reads the pod from the API server and checks it is still the same
// object; ok is false if it is gone or was re-created.
//
// The model only ever changes a pod's status before writing it back, so the
// result is a shallow copy of the stored pod that owns only what the
// transitions edit in place (see statusWritable).
func (k *Kubelet) freshPod(p *podState) (*corev1.Pod, bool) {
	pod, ok := k.storedPod(p)
	if !ok {
		return nil, false
	}
	return statusWritable(pod), true
}

// storedPod is freshPod without the copy: the stored pod itself, which must
// not be modified.
func (k *Kubelet) storedPod(p *podState) (*corev1.Pod, bool) {
	pod, ok := k.server.FindPodInSlot(p.slots, int(p.slot), p.key)
	if !ok || pod.UID != p.uid {
		return nil, false
	}
	return pod, true
}

// podConditions is the number of conditions the kubelet sets on a running
// pod (PodScheduled, Initialized, ContainersReady, Ready).
const podConditions = 4

// statusWritable returns a shallow copy of the stored pod for a status
// write: it owns its conditions (setPodCondition edits them in place) and
// shares everything else with the stored pod, which must stay unchanged.
// So the transitions assign new values to the other status fields
// (containerStatuses builds a new slice, the start time is a new pointer)
// and clone what they edit in place (unready's container statuses). The
// copy is handed to the server, which stores it as it is
// (UpdatePodStatusOwned).
func statusWritable(pod *corev1.Pod) *corev1.Pod {
	cp := *pod
	// Room for the four conditions a running pod has, so that the first
	// start appends them without growing the slice.
	cp.Status.Conditions = append(make([]corev1.PodCondition, 0, max(len(pod.Status.Conditions), podConditions)), pod.Status.Conditions...)
	return &cp
}

// firePod runs one due transition. Binding and the final delete only name
// the pod, so they get the stored pod; the transitions that write status
// get a copy (bind copies it before writing the unschedulable condition).
func (k *Kubelet) firePod(act action, p *podState) {
	pod, ok := k.storedPod(p)
	if !ok {
		k.deletePod(p)
		return
	}
	if n := k.nodes[p.node]; n != nil && !n.ready {
		// A failed node's kubelet writes nothing: the transition is lost.
		// RecoverNode restarts the pods that are still there.
		p.gen++
		return
	}
	switch act {
	case actBind:
		k.bind(p, pod)
	case actStart, actRestart:
		k.start(p, statusWritable(pod), act == actRestart)
	case actReady:
		k.ready(p, statusWritable(pod))
	case actCrash:
		k.crash(p, statusWritable(pod))
	case actUnready:
		k.unready(p, statusWritable(pod))
	case actLivenessKill:
		k.livenessKill(p, statusWritable(pod))
	case actTerminate:
		k.terminate(p, pod)
	}
}

// bind schedules and binds the pod. pod is the stored pod (read-only); the
// unschedulable branch writes status on a copy.
func (k *Kubelet) bind(p *podState, pod *corev1.Pod) {
	node, msg := k.pickNodeFor(p, pod)
	if node == "" {
		k.unschedulable = append(k.unschedulable, p.key)
		p.waitsForPods = msg != ""
		detail := "no ready node"
		if msg != "" {
			detail = msg
		}
		if c := podCondition(pod, corev1.PodScheduled); msg != "" && c != nil && c.Status == corev1.ConditionFalse && c.Reason == "Unschedulable" && c.Message == msg {
			return // a retry (a pod left a node, or one was relabeled) that finds what the last one did writes nothing
		}
		pod = statusWritable(pod)
		setPodCondition(pod, corev1.PodScheduled, corev1.ConditionFalse, "Unschedulable", k.clock.Now())
		podCondition(pod, corev1.PodScheduled).Message = msg
		k.writeStatus("scheduler", pod)
		k.emit(Transition{Actor: "scheduler", Pod: p.key, What: "unschedulable", Detail: detail})
		return
	}
	if _, err := k.server.BindPod("scheduler", pod.Namespace, pod.Name, node); err != nil {
		k.emit(Transition{Actor: "scheduler", Pod: p.key, What: "failed", Detail: "bind: " + err.Error()})
		return
	}
	p.node, p.stage = node, stageBound
	k.place(p, node)
	k.emit(Transition{Actor: "scheduler", Pod: p.key, Node: node, What: "bound"})
	k.schedulePod(p, k.startDelay(p), actStart)
}

func (k *Kubelet) start(p *podState, pod *corev1.Pod, restart bool) {
	if k.cfg.Profile(p.image).PullError {
		k.pullBackOff(p, pod)
		return
	}
	now := k.clock.Now()
	k.takenUp(p, pod, corev1.PodRunning, now)
	pod.Status.ContainerStatuses = containerStatuses(pod, p.restarts, now, false)
	k.writeStatus("kubelet", pod)
	p.stage = stageRunning
	what := "running"
	if restart {
		what = "restarted"
	}
	k.emit(Transition{Pod: p.key, Node: p.node, What: what, Detail: restartsDetail(p.restarts)})
	k.planRun(p, now)
}

// takenUp writes what a pod the node's kubelet has taken up shows, whether
// its containers run (Running) or not (Pending: the image cannot be
// pulled): the phase, its start time, the host's and its own IP, and the
// conditions of a pod not ready yet.
func (k *Kubelet) takenUp(p *podState, pod *corev1.Pod, phase corev1.PodPhase, now time.Time) {
	pod.Status.Phase = phase
	if pod.Status.StartTime == nil {
		t := metav1.NewTime(now)
		pod.Status.StartTime = &t
	}
	pod.Status.HostIP = nodeIP(k.nodeIndex(p.node))
	if pod.Status.PodIP == "" {
		pod.Status.PodIP = podIP(k.nodeIndex(p.node), p.uid)
	}
	setPodCondition(pod, corev1.PodScheduled, corev1.ConditionTrue, "", now)
	setPodCondition(pod, corev1.PodInitialized, corev1.ConditionTrue, "", now)
	setPodCondition(pod, corev1.ContainersReady, corev1.ConditionFalse, "ContainersNotReady", now)
	setPodCondition(pod, corev1.PodReady, corev1.ConditionFalse, "ContainersNotReady", now)
}

// pullBackOff is the start of a pod whose image cannot be pulled: it stays
// Pending, its containers waiting in ImagePullBackOff, and nothing more
// is scheduled for it (the kubelet's pull retries change nothing the
// controllers read).
func (k *Kubelet) pullBackOff(p *podState, pod *corev1.Pod) {
	now := k.clock.Now()
	k.takenUp(p, pod, corev1.PodPending, now)
	statuses := make([]corev1.ContainerStatus, 0, len(pod.Spec.Containers))
	for _, c := range pod.Spec.Containers {
		statuses = append(statuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{
			Reason: "ImagePullBackOff", Message: fmt.Sprintf("Back-off pulling image %q", c.Image)}}})
	}
	pod.Status.ContainerStatuses = statuses
	k.writeStatus("kubelet", pod)
	k.emit(Transition{Pod: p.key, Node: p.node, What: "image-pull-backoff", Detail: "the image cannot be pulled"})
}

// planRun schedules what happens next in a container run that begins at
// now: a crash for a crash-looping image, else the probes' outcomes.
func (k *Kubelet) planRun(p *podState, now time.Time) {
	prof := k.cfg.Profile(p.image)
	if prof.CrashLoop {
		k.schedulePod(p, k.rand.Jitter(prof.CrashAfter, prof.Jitter), actCrash)
		return
	}
	k.planProbes(p, prof, now)
	k.scheduleProbeOutcome(p)
}

func (k *Kubelet) ready(p *podState, pod *corev1.Pod) {
	now := k.clock.Now()
	setPodCondition(pod, corev1.ContainersReady, corev1.ConditionTrue, "", now)
	setPodCondition(pod, corev1.PodReady, corev1.ConditionTrue, "", now)
	pod.Status.ContainerStatuses = containerStatuses(pod, p.restarts, now, true)
	k.writeStatus("kubelet", pod)
	p.stage = stageReady
	p.readyAt = time.Time{}
	k.emit(Transition{Pod: p.key, Node: p.node, What: "ready"})
	k.scheduleProbeOutcome(p)
}

func (k *Kubelet) crash(p *podState, pod *corev1.Pod) {
	k.restartAfterBackOff(p, pod, 1, "crashed", "")
}

// restartAfterBackOff records a container exit (exit code, the transition
// name and why, prefixed to the detail) and schedules the restart after the
// kubelet's back-off.
func (k *Kubelet) restartAfterBackOff(p *podState, pod *corev1.Pod, exitCode int32, what, why string) {
	now := k.clock.Now()
	p.readyAt, p.unreadyAt, p.killAt = time.Time{}, time.Time{}, time.Time{}
	p.restarts++
	backoff := crashBackOffInitial << (p.restarts - 1)
	if p.restarts > 6 || backoff > crashBackOffMax {
		backoff = crashBackOffMax
	}
	setPodCondition(pod, corev1.ContainersReady, corev1.ConditionFalse, "ContainersNotReady", now)
	setPodCondition(pod, corev1.PodReady, corev1.ConditionFalse, "ContainersNotReady", now)
	pod.Status.ContainerStatuses = containerStatuses(pod, p.restarts, now, false)
	for i := range pod.Status.ContainerStatuses {
		cs := &pod.Status.ContainerStatuses[i]
		cs.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: fmt.Sprintf("back-off %s restarting failed container", backoff)}}
		cs.LastTerminationState = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: exitCode, Reason: "Error", FinishedAt: metav1.NewTime(now)}}
	}
	k.writeStatus("kubelet", pod)
	p.stage = stageCrashed
	k.emit(Transition{Pod: p.key, Node: p.node, What: what, Detail: why + fmt.Sprintf("restart %d, back-off %s", p.restarts, backoff)})
	k.schedulePod(p, backoff, actRestart)
}

// terminate removes the pod for good; pod is the stored pod (read-only).
func (k *Kubelet) terminate(p *podState, pod *corev1.Pod) {
	zero := int64(0)
	err := k.server.DeletePod("kubelet", pod.Namespace, pod.Name, apiserver.DeleteOptions{
		GracePeriodSeconds: &zero,
		Preconditions:      &metav1.Preconditions{UID: &p.uid},
	})
	p.gen++
	if err != nil {
		k.emit(Transition{Pod: p.key, Node: p.node, What: "failed", Detail: "final delete: " + err.Error()})
		return
	}
	detail := "containers stopped; pod removed"
	if kept, ok := k.storedPod(p); ok {
		detail = "containers stopped; pod kept until its finalizers are removed: " + strings.Join(kept.Finalizers, ", ")
	}
	k.emit(Transition{Pod: p.key, Node: p.node, What: "terminated", Detail: detail})
}

func (k *Kubelet) writeStatus(actor string, pod *corev1.Pod) {
	if _, err := k.server.UpdatePodStatusOwned(actor, pod); err != nil {
		k.emit(Transition{Actor: actor, Pod: pod.Namespace + "/" + pod.Name, What: "failed", Detail: "status: " + err.Error()})
	}
}

func (k *Kubelet) nodeIndex(name string) int {
	for i, n := range k.nodeOrder {
		if n == name {
			return i + 1
		}
	}
	return 0
}

func nodeIP(i int) string { return fmt.Sprintf("10.0.0.%d", i) }

func podIP(node int, uid types.UID) string {
	var h uint32
	for _, c := range []byte(uid) {
		h = h*31 + uint32(c)
	}
	return fmt.Sprintf("10.244.%d.%d", node, 2+h%250)
}

// containerStatuses renders the status of every regular container. The
// last termination state of a container is kept from the pod's current
// statuses, as the kubelet keeps it across restarts.
func containerStatuses(pod *corev1.Pod, restarts int32, now time.Time, ready bool) []corev1.ContainerStatus {
	out := make([]corev1.ContainerStatus, 0, len(pod.Spec.Containers))
	started := metav1.NewTime(now)
	for i, c := range pod.Spec.Containers {
		cs := corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, Ready: ready, RestartCount: restarts,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
		}
		if prev := pod.Status.ContainerStatuses; i < len(prev) && prev[i].Name == c.Name {
			cs.LastTerminationState = prev[i].LastTerminationState
			// IDs and a started flag equal to the ones built below are
			// taken from the status before (stored statuses are never
			// changed in place) instead of built again.
			if isSimID(prev[i].ImageID, c.Image, "", "") && isSimID(prev[i].ContainerID, pod.Name, "/", c.Name) {
				cs.ImageID, cs.ContainerID = prev[i].ImageID, prev[i].ContainerID
			}
			if st := prev[i].Started; st != nil && *st {
				cs.Started = st
			}
		}
		if cs.ImageID == "" {
			cs.ImageID, cs.ContainerID = "sim://"+c.Image, "sim://"+pod.Name+"/"+c.Name
		}
		if cs.Started == nil {
			t := true
			cs.Started = &t
		}
		out = append(out, cs)
	}
	return out
}

// isSimID reports whether id is "sim://" + a + b + c, without building it.
func isSimID(id, a, b, c string) bool {
	const scheme = "sim://"
	if len(id) != len(scheme)+len(a)+len(b)+len(c) || !strings.HasPrefix(id, scheme) {
		return false
	}
	id = id[len(scheme):]
	return id[:len(a)] == a && id[len(a):len(a)+len(b)] == b && id[len(a)+len(b):] == c
}

// podCondition returns pod's condition of type t, nil when it has none.
func podCondition(pod *corev1.Pod, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == t {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// setPodCondition sets a condition, changing lastTransitionTime only when the
// status changes; its message is cleared (the scheduler's, once the pod is
// bound, as a binding writes the condition anew).
func setPodCondition(pod *corev1.Pod, t corev1.PodConditionType, status corev1.ConditionStatus, reason string, now time.Time) {
	for i := range pod.Status.Conditions {
		c := &pod.Status.Conditions[i]
		if c.Type != t {
			continue
		}
		if c.Status != status {
			c.LastTransitionTime = metav1.NewTime(now)
		}
		c.Status, c.Reason, c.Message = status, reason, ""
		return
	}
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: t, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(now)})
}

// restartsDetail is the detail of a start: "restarts N" (a constant for
// the usual first start).
func restartsDetail(restarts int32) string {
	if restarts == 0 {
		return "restarts 0"
	}
	return fmt.Sprintf("restarts %d", restarts)
}
