package session

import (
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/expectations"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/engine/workqueue"
)

// View is a read-only picture of the simulation after the current step: what
// the UI renders. It holds copies, never live objects. See docs/view-schema.md.
type View struct {
	Scenario string `json:"scenario"`
	Seed     uint64 `json:"seed"`
	// Step is the current step; MaxStep the furthest computed.
	Step    int           `json:"step"`
	MaxStep int           `json:"maxStep"`
	At      time.Duration `json:"atNs"`
	Now     string        `json:"now"`
	// Idle: nothing is due; Stopped: a limit stopped the run (the message).
	Idle    bool   `json:"idle"`
	Stopped string `json:"stopped,omitempty"`

	Deployments []DeploymentView `json:"deployments"`
	ReplicaSets []ReplicaSetView `json:"replicaSets"`
	Pods        []PodView        `json:"pods"`
	// PodTotal is the number of pods; Pods lists at most ViewOptions.MaxPods
	// of them.
	PodTotal int `json:"podTotal"`
	// PodsToken names the pods this view lists: two views of a session
	// with the same token list the same pods. PodsSame is set, and Pods
	// left empty, when ViewOptions.PodsSince is this token: the caller
	// holds that list already.
	PodsToken string      `json:"podsToken"`
	PodsSame  bool        `json:"podsSame,omitempty"`
	Nodes     []NodeView  `json:"nodes"`
	Queues    []QueueView `json:"queues"`
	// Expectations are the ReplicaSet controller's, by RS key.
	Expectations []expectations.Entry `json:"expectations"`
	// LastStep is the step just taken (nil at step 0) and Records what it
	// produced.
	LastStep *sim.StepInfo  `json:"lastStep,omitempty"`
	Records  []trace.Record `json:"records"`
	// PendingActions are timeline actions not yet run.
	PendingActions []string `json:"pendingActions"`
	// ActionsHere describes the user actions made at this step (Describe),
	// which a fork here replaces unless told to keep them (compare.Keep).
	ActionsHere []string `json:"actionsHere,omitempty"`
}

// Condition is a Deployment or ReplicaSet condition, flattened.
type Condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
	LastUpdateTime     string `json:"lastUpdateTime,omitempty"`
	LastTransitionTime string `json:"lastTransitionTime,omitempty"`
}

// DeploymentView is one Deployment.
type DeploymentView struct {
	Namespace          string      `json:"namespace"`
	Name               string      `json:"name"`
	UID                string      `json:"uid"`
	Generation         int64       `json:"generation"`
	ObservedGeneration int64       `json:"observedGeneration"`
	Replicas           int32       `json:"replicas"`
	Strategy           string      `json:"strategy"`
	MaxSurge           string      `json:"maxSurge,omitempty"`
	MaxUnavailable     string      `json:"maxUnavailable,omitempty"`
	MinReadySeconds    int32       `json:"minReadySeconds"`
	Paused             bool        `json:"paused"`
	Revision           string      `json:"revision,omitempty"`
	Images             []string    `json:"images"`
	Status             StatusCount `json:"status"`
	Conditions         []Condition `json:"conditions"`
	Deleting           bool        `json:"deleting,omitempty"`
	// Finalizers are listed while the object is deleting: what it waits
	// for (foregroundDeletion: its blocking dependents; orphan: the
	// garbage collector to release them).
	Finalizers []string `json:"finalizers,omitempty"`
	// Budget is the rolling update's bounds as the controller resolves
	// them (nil for another strategy, or when maxSurge or maxUnavailable
	// does not resolve).
	Budget *RolloutBudget `json:"budget,omitempty"`
}

// RolloutBudget is what a rolling update may do: the replicas of all the
// Deployment's ReplicaSets together stay at most Replicas + MaxSurge, and
// scaling old ones down keeps at least Replicas - MaxUnavailable available.
// Both are resolved against spec.replicas as the controller resolves them
// (maxSurge rounded up, maxUnavailable down, not both zero, unavailability
// at most the replicas).
type RolloutBudget struct {
	MaxSurge       int32 `json:"maxSurge"`
	MaxUnavailable int32 `json:"maxUnavailable"`
}

// StatusCount are a Deployment's status counters.
type StatusCount struct {
	Replicas    int32  `json:"replicas"`
	Updated     int32  `json:"updated"`
	Ready       int32  `json:"ready"`
	Available   int32  `json:"available"`
	Unavailable int32  `json:"unavailable"`
	Terminating *int32 `json:"terminating,omitempty"`
}

// ReplicaSetView is one ReplicaSet.
type ReplicaSetView struct {
	Namespace       string            `json:"namespace"`
	Name            string            `json:"name"`
	UID             string            `json:"uid"`
	Owner           string            `json:"owner,omitempty"`
	Revision        string            `json:"revision,omitempty"`
	PodTemplateHash string            `json:"podTemplateHash,omitempty"`
	Desired         int32             `json:"desired"`
	Current         int32             `json:"current"`
	Ready           int32             `json:"ready"`
	Available       int32             `json:"available"`
	Terminating     *int32            `json:"terminating,omitempty"`
	Images          []string          `json:"images"`
	Selector        string            `json:"selector"`
	Annotations     map[string]string `json:"annotations,omitempty"`
	Conditions      []Condition       `json:"conditions"`
	Deleting        bool              `json:"deleting,omitempty"`
	// Finalizers: as DeploymentView's.
	Finalizers []string `json:"finalizers,omitempty"`
	CreatedAt  string   `json:"createdAt"`
}

// PodView is one pod: what the page draws of it. The page's view of every
// step lists up to 150 pods, so it holds nothing the page does not read
// (their labels, UIDs and creation times were half of the time the bridge
// spent encoding a step's answer; kubectl shows them).
type PodView struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Owner is the controlling ReplicaSet's name, "" for an orphan.
	Owner       string `json:"owner,omitempty"`
	Node        string `json:"node,omitempty"`
	Phase       string `json:"phase"`
	Status      string `json:"status"`
	Ready       bool   `json:"ready"`
	Available   bool   `json:"available"`
	Terminating bool   `json:"terminating"`
	Restarts    int32  `json:"restarts"`
	Image       string `json:"image"`
	// Unschedulable is why the scheduler could place the pod on no node
	// (its PodScheduled condition's message: "0/3 nodes are available:
	// 3 node(s) didn't match pod anti-affinity rules. preemption: ..."),
	// "" while it has not failed to, or failed for want of a ready node
	// (the model writes no message then).
	Unschedulable string `json:"unschedulable,omitempty"`
}

// NodeView is one node.
type NodeView struct {
	Name string `json:"name"`
	// Ready is the node's Ready condition as the API server has it; Down
	// says the node stopped responding (a failNode action), which the
	// API shows only once the node controller's grace period has run out.
	Ready bool `json:"ready"`
	Down  bool `json:"down,omitempty"`
	Pods  int  `json:"pods"`
}

// QueueView is one controller's workqueue.
type QueueView struct {
	Controller string          `json:"controller"`
	State      workqueue.State `json:"state"`
}

// ViewOptions trims a view.
type ViewOptions struct {
	// MaxPods caps the pods listed (0: all). Large runs list the first
	// MaxPods in name order and report the total in PodTotal.
	MaxPods int
	// PodsSince is the PodsToken of the view the caller shows, or "": when
	// this view's pods are the same, it lists none (View.PodsSame). Most
	// steps write no pod (an informer's delivery, a sync that finds
	// nothing to do): their views then cost the engine, the page's Worker
	// and the page nothing for the pods.
	PodsSince string
}

// podsToken names the pods a view lists: the server's resource version
// (every write of a pod, and of a ReplicaSet's minReadySeconds, which
// decides "available", changes it), the virtual time (availability
// changes with it), the cap, and how many times the session's future was
// rewritten (after a user action the same resource version can stand for
// other objects).
func (s *Session) podsToken(maxPods int) string {
	b := make([]byte, 0, 48)
	b = strconv.AppendUint(b, s.futures, 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, s.sim.Server().ResourceVersion(), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(s.sim.Clock().Elapsed()), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(maxPods), 10)
	return string(b)
}

// View returns the picture after the current step.
func (s *Session) View(opts ViewOptions) *View {
	sm := s.sim
	now := sm.Now()
	v := &View{Scenario: s.scen.Name, Seed: s.seed, Step: sm.Steps(), MaxStep: len(s.history), At: sm.Clock().Elapsed(),
		Now: now.UTC().Format(time.RFC3339Nano), Idle: sm.Idle(), PendingActions: sm.PendingActions()}
	for _, a := range s.UserActionsAt(v.Step) {
		v.ActionsHere = append(v.ActionsHere, Describe(a))
	}
	if err := sm.Err(); err != nil {
		v.Stopped = err.Error()
	}
	srv := sm.Server()
	rsMinReady := map[string]int32{}
	for _, rs := range srv.ListReplicaSets("", nil) {
		rsMinReady[string(rs.UID)] = rs.Spec.MinReadySeconds
		v.ReplicaSets = append(v.ReplicaSets, replicaSetView(rs))
	}
	for _, d := range srv.ListDeployments("", nil) {
		v.Deployments = append(v.Deployments, deploymentView(d))
	}
	// Counts come from the server; only the pods shown are visited.
	v.PodTotal = srv.PodCount()
	v.PodsToken = s.podsToken(opts.MaxPods)
	if opts.PodsSince != "" && opts.PodsSince == v.PodsToken {
		v.PodsSame = true
	} else {
		shown := v.PodTotal
		if opts.MaxPods > 0 {
			shown = min(shown, opts.MaxPods)
		}
		if shown > 0 {
			v.Pods = make([]PodView, 0, shown)
		}
		srv.EachPod(func(p *corev1.Pod) bool {
			if len(v.Pods) >= shown {
				return false
			}
			v.Pods = append(v.Pods, podView(p, rsMinReady, now))
			return true
		})
	}
	for _, n := range srv.ListNodes("", nil) {
		v.Nodes = append(v.Nodes, NodeView{Name: n.Name, Ready: nodeReady(n), Down: !sm.Kubelet().NodeReady(n.Name), Pods: srv.PodsOnNode(n.Name)})
	}
	v.Queues = []QueueView{
		{Controller: "replicaset-controller", State: sm.ReplicaSetController().Queue().Snapshot()},
		{Controller: "deployment-controller", State: sm.DeploymentController().Queue().Snapshot()},
	}
	v.Expectations = sm.ReplicaSetController().Expectations().Snapshot()
	if n := sm.Steps(); n > 0 && n <= len(s.history) {
		last := s.history[n-1]
		v.LastStep = &last
		v.Records = last.Records(sm.Recorder())
	}
	return v
}

func conditionsOf(conds any) []Condition {
	out := []Condition{}
	switch cs := conds.(type) {
	case []appsv1.DeploymentCondition:
		for _, c := range cs {
			out = append(out, Condition{Type: string(c.Type), Status: string(c.Status), Reason: c.Reason, Message: c.Message,
				LastUpdateTime: stamp(c.LastUpdateTime), LastTransitionTime: stamp(c.LastTransitionTime)})
		}
	case []appsv1.ReplicaSetCondition:
		for _, c := range cs {
			out = append(out, Condition{Type: string(c.Type), Status: string(c.Status), Reason: c.Reason, Message: c.Message,
				LastTransitionTime: stamp(c.LastTransitionTime)})
		}
	}
	return out
}

func stamp(t metav1.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func images(spec corev1.PodSpec) []string {
	out := make([]string, 0, len(spec.Containers))
	for _, c := range spec.Containers {
		out = append(out, c.Image)
	}
	return out
}

func deploymentView(d *appsv1.Deployment) DeploymentView {
	v := DeploymentView{Namespace: d.Namespace, Name: d.Name, UID: string(d.UID), Generation: d.Generation,
		ObservedGeneration: d.Status.ObservedGeneration, Strategy: string(d.Spec.Strategy.Type), MinReadySeconds: d.Spec.MinReadySeconds,
		Paused: d.Spec.Paused, Revision: d.Annotations["deployment.kubernetes.io/revision"], Images: images(d.Spec.Template.Spec),
		Conditions: conditionsOf(d.Status.Conditions), Deleting: d.DeletionTimestamp != nil, Finalizers: deletingFinalizers(&d.ObjectMeta),
		Status: StatusCount{Replicas: d.Status.Replicas, Updated: d.Status.UpdatedReplicas, Ready: d.Status.ReadyReplicas,
			Available: d.Status.AvailableReplicas, Unavailable: d.Status.UnavailableReplicas, Terminating: d.Status.TerminatingReplicas}}
	if d.Spec.Replicas != nil {
		v.Replicas = *d.Spec.Replicas
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		if ru.MaxSurge != nil {
			v.MaxSurge = ru.MaxSurge.String()
		}
		if ru.MaxUnavailable != nil {
			v.MaxUnavailable = ru.MaxUnavailable.String()
		}
	}
	if deployutil.IsRollingUpdate(d) {
		if m := deployutil.ExplainFenceposts(d); m.Resolved && m.Error == "" {
			v.Budget = &RolloutBudget{MaxSurge: m.MaxSurge, MaxUnavailable: m.MaxUnavailable}
		}
	}
	return v
}

func replicaSetView(rs *appsv1.ReplicaSet) ReplicaSetView {
	v := ReplicaSetView{Namespace: rs.Namespace, Name: rs.Name, UID: string(rs.UID), Revision: rs.Annotations["deployment.kubernetes.io/revision"],
		PodTemplateHash: rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey], Current: rs.Status.Replicas, Ready: rs.Status.ReadyReplicas,
		Available: rs.Status.AvailableReplicas, Terminating: rs.Status.TerminatingReplicas, Images: images(rs.Spec.Template.Spec),
		Annotations: rs.Annotations, Conditions: conditionsOf(rs.Status.Conditions), Deleting: rs.DeletionTimestamp != nil, Finalizers: deletingFinalizers(&rs.ObjectMeta),
		CreatedAt: stamp(rs.CreationTimestamp)}
	if rs.Spec.Replicas != nil {
		v.Desired = *rs.Spec.Replicas
	}
	if ref := metav1.GetControllerOfNoCopy(rs); ref != nil {
		v.Owner = ref.Name
	}
	if sel, err := metav1.LabelSelectorAsSelector(rs.Spec.Selector); err == nil {
		v.Selector = sel.String()
	}
	return v
}

func podView(p *corev1.Pod, rsMinReady map[string]int32, now time.Time) PodView {
	v := PodView{Namespace: p.Namespace, Name: p.Name, Node: p.Spec.NodeName, Phase: string(p.Status.Phase),
		Status: PodStatus(p), Ready: podutil.IsPodReady(p), Terminating: p.DeletionTimestamp != nil}
	if len(p.Spec.Containers) > 0 {
		v.Image = p.Spec.Containers[0].Image
	}
	for _, cs := range p.Status.ContainerStatuses {
		v.Restarts += cs.RestartCount
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable && p.Spec.NodeName == "" {
			v.Unschedulable = c.Message
		}
	}
	minReady := int32(0)
	if ref := metav1.GetControllerOfNoCopy(p); ref != nil {
		v.Owner = ref.Name
		minReady = rsMinReady[string(ref.UID)]
	}
	v.Available = podutil.IsPodActive(p) && podutil.IsPodAvailable(p, minReady, now)
	return v
}

func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// PodStatus is the STATUS column `kubectl get pods` shows.
func PodStatus(p *corev1.Pod) string {
	if p.DeletionTimestamp != nil {
		return "Terminating"
	}
	reason := string(p.Status.Phase)
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	if p.Spec.NodeName != "" && p.Status.Phase == corev1.PodPending && len(p.Status.ContainerStatuses) == 0 {
		reason = "ContainerCreating"
	}
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Waiting != nil && cs.State.Waiting.Reason != "" {
			reason = cs.State.Waiting.Reason
		} else if cs.State.Terminated != nil && cs.State.Terminated.Reason != "" {
			reason = cs.State.Terminated.Reason
		}
	}
	return reason
}

// deletingFinalizers returns the finalizers of an object being deleted,
// nil otherwise (stored objects are never written to: the view may share
// the slice).
func deletingFinalizers(m *metav1.ObjectMeta) []string {
	if m.DeletionTimestamp == nil {
		return nil
	}
	return m.Finalizers
}
