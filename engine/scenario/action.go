package scenario

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/kubelet"
)

// ActionType is what a timeline entry does.
type ActionType uint8

const (
	// ActionApply creates or updates the objects of Manifest.
	ActionApply ActionType = iota + 1
	// ActionScale sets spec.replicas of a Deployment or ReplicaSet.
	ActionScale
	// ActionSetImage sets the image of one container of a Deployment.
	ActionSetImage
	// ActionPause sets spec.paused of a Deployment.
	ActionPause
	// ActionResume clears spec.paused of a Deployment.
	ActionResume
	// ActionRestart stamps the kubectl.kubernetes.io/restartedAt template
	// annotation of a Deployment.
	ActionRestart
	// ActionUndo rolls a Deployment back (kubectl rollout undo).
	ActionUndo
	// ActionDelete deletes a Deployment, ReplicaSet or Pod with a
	// propagation policy.
	ActionDelete
	// ActionDeletePod deletes one pod by name.
	ActionDeletePod
	// ActionFailNode makes a node stop responding.
	ActionFailNode
	// ActionRecoverNode brings a failed node back.
	ActionRecoverNode
	// ActionSetImageProfile changes how containers of an image behave.
	ActionSetImageProfile
	// ActionRemoveFinalizer removes one finalizer from an object (a
	// metadata patch, as `kubectl patch` would send).
	ActionRemoveFinalizer
	// ActionWriteStatus writes status.replicas of a Deployment or
	// ReplicaSet through the /status subresource or, to show that it is
	// ignored there, through the main resource.
	ActionWriteStatus
	// ActionSetRollingUpdate sets maxSurge and/or maxUnavailable of a
	// Deployment's RollingUpdate strategy.
	ActionSetRollingUpdate
	// ActionSetStrategy switches a Deployment's strategy type.
	ActionSetStrategy
	// ActionSetMinReadySeconds sets spec.minReadySeconds of a Deployment.
	ActionSetMinReadySeconds
	// ActionSetProgressDeadline sets spec.progressDeadlineSeconds of a
	// Deployment.
	ActionSetProgressDeadline
	// ActionSetResources sets resource requests/limits of a container of a
	// Deployment's template.
	ActionSetResources
	// ActionSetEnv sets or removes environment variables of a container of
	// a Deployment's template.
	ActionSetEnv
)

var actionNames = [...]string{
	ActionApply: "apply", ActionScale: "scale", ActionSetImage: "setImage",
	ActionPause: "pause", ActionResume: "resume", ActionRestart: "restart",
	ActionUndo: "undo", ActionDelete: "delete", ActionDeletePod: "deletePod",
	ActionFailNode: "failNode", ActionRecoverNode: "recoverNode",
	ActionSetImageProfile: "setImageProfile", ActionRemoveFinalizer: "removeFinalizer",
	ActionWriteStatus:      "writeStatus",
	ActionSetRollingUpdate: "setRollingUpdate", ActionSetStrategy: "setStrategy",
	ActionSetMinReadySeconds: "setMinReadySeconds", ActionSetProgressDeadline: "setProgressDeadline",
	ActionSetResources: "setResources", ActionSetEnv: "setEnv",
}

// String returns the name used in scenario files, e.g. "setImage".
func (a ActionType) String() string {
	if int(a) < len(actionNames) && actionNames[a] != "" {
		return actionNames[a]
	}
	return "unknown"
}

// MarshalJSON renders the file name of the action.
func (a ActionType) MarshalJSON() ([]byte, error) { return []byte(`"` + a.String() + `"`), nil }

// actionTypeNames lists the action names in file spelling, in enum order.
func actionTypeNames() []string { return actionNames[1:] }

// Kind is the kind of object a target names.
type Kind uint8

const (
	// KindDeployment is an apps/v1 Deployment.
	KindDeployment Kind = iota + 1
	// KindReplicaSet is an apps/v1 ReplicaSet.
	KindReplicaSet
	// KindPod is a v1 Pod.
	KindPod
)

// String returns the lower-case kubectl resource name, e.g. "deployment".
func (k Kind) String() string {
	switch k {
	case KindDeployment:
		return "deployment"
	case KindReplicaSet:
		return "replicaset"
	case KindPod:
		return "pod"
	}
	return "unknown"
}

// MarshalJSON renders String.
func (k Kind) MarshalJSON() ([]byte, error) { return []byte(`"` + k.String() + `"`), nil }

// kindAliases are the spellings kubectl accepts for each kind.
var kindAliases = map[string]Kind{
	"deploy": KindDeployment, "deployment": KindDeployment, "deployments": KindDeployment,
	"rs": KindReplicaSet, "replicaset": KindReplicaSet, "replicasets": KindReplicaSet,
	"po": KindPod, "pod": KindPod, "pods": KindPod,
}

// Ref names one object: "deployment/web".
type Ref struct {
	Kind Kind   `json:"kind"`
	Name string `json:"name"`
}

// String renders kind/name.
func (r Ref) String() string { return r.Kind.String() + "/" + r.Name }

// TriggerType says when an action runs.
type TriggerType uint8

const (
	// TriggerAt runs the action at a virtual time since the start.
	TriggerAt TriggerType = iota + 1
	// TriggerAfter runs the action a delay after the previous action ran
	// (after the start, for the first action).
	TriggerAfter
	// TriggerWhen runs the action once a condition holds (checked after the
	// previous action ran).
	TriggerWhen
)

// String returns the field name used in scenario files.
func (t TriggerType) String() string {
	switch t {
	case TriggerAt:
		return "at"
	case TriggerAfter:
		return "after"
	case TriggerWhen:
		return "when"
	}
	return "unknown"
}

// MarshalJSON renders String.
func (t TriggerType) MarshalJSON() ([]byte, error) { return []byte(`"` + t.String() + `"`), nil }

// ConditionType is the kind of condition a "when" trigger waits for.
type ConditionType uint8

const (
	// CondRolloutComplete holds when Target (a Deployment) has rolled out,
	// as `kubectl rollout status` reports success.
	CondRolloutComplete ConditionType = iota + 1
	// CondAvailable holds when Target's status.availableReplicas >= AtLeast.
	CondAvailable
	// CondSettled holds when the simulation has nothing left to do.
	CondSettled
	// CondStep holds from simulator step Step on.
	CondStep
)

// String returns the field name used in scenario files.
func (c ConditionType) String() string {
	switch c {
	case CondRolloutComplete:
		return "rolloutComplete"
	case CondAvailable:
		return "available"
	case CondSettled:
		return "settled"
	case CondStep:
		return "step"
	}
	return "unknown"
}

// MarshalJSON renders String.
func (c ConditionType) MarshalJSON() ([]byte, error) { return []byte(`"` + c.String() + `"`), nil }

// Condition is the argument of a "when" trigger.
type Condition struct {
	Type ConditionType `json:"type"`
	// Target is set for CondRolloutComplete (a deployment) and CondAvailable
	// (a deployment or replicaset).
	Target Ref `json:"target,omitzero"`
	// Namespace of Target, set by the mapping forms {target, namespace} and
	// {target, atLeast, namespace}; "" means "default".
	Namespace string `json:"namespace,omitempty"`
	// AtLeast is set for CondAvailable; >= 0.
	AtLeast int32 `json:"atLeast,omitempty"`
	// Step is set for CondStep; >= 0.
	Step int `json:"step,omitempty"`
}

// Trigger says when an action runs; exactly one of its forms is set,
// according to Type.
type Trigger struct {
	Type TriggerType `json:"type"`
	// At is set for TriggerAt, After for TriggerAfter; both >= 0.
	At    time.Duration `json:"at,omitempty"`
	After time.Duration `json:"after,omitempty"`
	// When is set for TriggerWhen.
	When Condition `json:"when,omitzero"`
}

// Action is one entry of the timeline. Only the fields its Type uses are
// set; Parse has checked that those are present and well-formed.
type Action struct {
	// Doc and Line locate the entry in the file (the line of its first key).
	Doc  int `json:"doc"`
	Line int `json:"line"`
	// Trigger says when it runs.
	Trigger Trigger `json:"trigger"`
	// Type says what it does.
	Type ActionType `json:"type"`
	// Namespace of the target; "default" unless the entry names one.
	Namespace string `json:"namespace"`
	// Target is the object acted on (scale, setImage, pause, resume,
	// restart, undo, delete). Its kind is one the action accepts.
	Target Ref `json:"target,omitzero"`
	// Replicas is the scale target; >= 0.
	Replicas int32 `json:"replicas,omitempty"`
	// Container is setImage's container; "" means the first container of
	// the pod template.
	Container string `json:"container,omitempty"`
	// Image is the image of setImage and setImageProfile.
	Image string `json:"image,omitempty"`
	// ToRevision is undo's revision; 0 means the previous one.
	ToRevision int64 `json:"toRevision,omitempty"`
	// PropagationPolicy is delete's policy as kubectl sends it (default
	// Background; "" when Options is set). Any string is accepted here: the
	// API server judges it.
	PropagationPolicy metav1.DeletionPropagation `json:"propagationPolicy,omitempty"`
	// Options, when set, is delete's request body sent as written, with
	// nothing defaulted (an empty mapping sends no options at all).
	Options *DeleteOptions `json:"options,omitempty"`
	// Finalizer is removeFinalizer's finalizer.
	Finalizer string `json:"finalizer,omitempty"`
	// Via is writeStatus's endpoint: "status" (the /status subresource) or
	// "main" (a PUT of the object itself, which keeps the stored status).
	Via string `json:"via,omitempty"`
	// Pod is deletePod's pod name.
	Pod string `json:"pod,omitempty"`
	// Node is failNode's and recoverNode's node name.
	Node string `json:"node,omitempty"`
	// Profile is setImageProfile's new profile: the image's current profile
	// (as configured in the file, else the default image profile) with the
	// fields the entry names overridden.
	Profile kubelet.ImageProfile `json:"profile,omitzero"`
	// MaxSurge and MaxUnavailable are setRollingUpdate's and setStrategy's
	// new values; nil leaves a value as it is. Strings are passed on as
	// written: the API server judges them.
	MaxSurge       *intstr.IntOrString `json:"maxSurge,omitempty"`
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// Strategy is setStrategy's strategy type, as written (the API server
	// accepts RollingUpdate and Recreate).
	Strategy appsv1.DeploymentStrategyType `json:"strategy,omitempty"`
	// MinReadySeconds is setMinReadySeconds's value, ProgressDeadlineSeconds
	// setProgressDeadline's (any int32: the API server judges them).
	MinReadySeconds         int32 `json:"minReadySeconds,omitempty"`
	ProgressDeadlineSeconds int32 `json:"progressDeadlineSeconds,omitempty"`
	// Resources holds setResources' requests and limits (parsed
	// quantities); keys not named keep their values.
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
	// Env is setEnv's changes, sorted by name.
	Env []kubectl.EnvChange `json:"env,omitempty"`
	// Manifest holds apply's objects, decoded as strictly as top-level
	// documents, with Doc and Line pointing into this file.
	Manifest []Object `json:"manifest,omitempty"`
}

// DeleteOptions are the DELETE options a delete entry's "options" sends.
type DeleteOptions struct {
	// PropagationPolicy, when set, is sent as is.
	PropagationPolicy *metav1.DeletionPropagation `json:"propagationPolicy,omitempty"`
	// OrphanDependents is the legacy option; the API server refuses it
	// together with PropagationPolicy.
	OrphanDependents *bool `json:"orphanDependents,omitempty"`
}

// WriteStatus endpoints (Action.Via).
const (
	ViaStatus = "status"
	ViaMain   = "main"
)
