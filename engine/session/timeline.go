package session

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// timeline arms a scenario's actions one at a time: each entry's trigger is
// evaluated from the moment the previous entry ran (the start, for the
// first), as the scenario format defines "after" and "when".
type timeline struct {
	actions []scenario.Action
	// next is the index of the entry armed (or to arm) next.
	next int
	// armed is the action scheduled for entry next, pending in the
	// simulation until it runs; nil once every entry has run. Its Do moves
	// this timeline on (see rebind).
	armed *sim.Action
}

func newTimeline(actions []scenario.Action) *timeline { return &timeline{actions: actions} }

// arm schedules entry t.next on sm.
func (t *timeline) arm(sm *sim.Sim) {
	t.armed = nil
	if t.next >= len(t.actions) {
		return
	}
	a := t.actions[t.next]
	sa := &sim.Action{Name: Describe(a), Do: t.run(a)}
	switch a.Trigger.Type {
	case scenario.TriggerAt:
		sa.At = sm.Clock().Start().Add(a.Trigger.At)
	case scenario.TriggerAfter:
		sa.At = sm.Now().Add(a.Trigger.After)
	case scenario.TriggerWhen:
		sa.When = condition(a.Trigger.When)
	default:
		sa.At = sm.Now()
	}
	sm.Schedule(sa)
	t.armed = sa
}

// run returns the Do of entry t.next (a): perform it, then arm the next.
func (t *timeline) run(a scenario.Action) func(*sim.Sim) (string, error) {
	return func(sm *sim.Sim) (string, error) {
		msg, err := perform(sm, a)
		t.next++
		t.arm(sm)
		return msg, err
	}
}

// rebind makes t the owner of armed, the action another session's timeline
// armed for entry t.next of the same scenario (a fork restored from its
// checkpoint): sm runs a copy that moves t on instead.
func (t *timeline) rebind(sm *sim.Sim, armed *sim.Action) {
	t.armed = armed
	if armed == nil || t.next >= len(t.actions) {
		return
	}
	own := *armed
	own.Do = t.run(t.actions[t.next])
	if sm.ReplaceAction(armed, &own) {
		t.armed = &own
	}
}

// condition turns a "when" trigger into a predicate over the simulation.
func condition(c scenario.Condition) func(*sim.Sim) bool {
	if c.Namespace == "" {
		c.Namespace = "default"
	}
	switch c.Type {
	case scenario.CondRolloutComplete:
		return func(sm *sim.Sim) bool {
			d, err := sm.Server().GetDeployment(c.Namespace, c.Target.Name)
			return err == nil && RolloutComplete(d)
		}
	case scenario.CondAvailable:
		return func(sm *sim.Sim) bool { return availableReplicas(sm, c.Namespace, c.Target) >= c.AtLeast }
	case scenario.CondSettled:
		return func(sm *sim.Sim) bool { return sm.Quiet() }
	case scenario.CondStep:
		return func(sm *sim.Sim) bool { return sm.Steps() >= c.Step }
	}
	return func(*sim.Sim) bool { return false }
}

func availableReplicas(sm *sim.Sim, ns string, ref scenario.Ref) int32 {
	switch ref.Kind {
	case scenario.KindDeployment:
		if d, err := sm.Server().GetDeployment(ns, ref.Name); err == nil {
			return d.Status.AvailableReplicas
		}
	case scenario.KindReplicaSet:
		if rs, err := sm.Server().GetReplicaSet(ns, ref.Name); err == nil {
			return rs.Status.AvailableReplicas
		}
	}
	return -1
}

// RolloutComplete reports whether `kubectl rollout status` would say the
// Deployment has successfully rolled out.
func RolloutComplete(d *appsv1.Deployment) bool {
	if d.Generation > d.Status.ObservedGeneration {
		return false
	}
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	s := d.Status
	return s.UpdatedReplicas >= replicas && s.Replicas <= s.UpdatedReplicas && s.AvailableReplicas >= s.UpdatedReplicas
}

// Describe renders an action as one line, e.g. "scale deployment/web to 12";
// a target outside the default namespace gets kubectl's " -n shop".
func Describe(a scenario.Action) string {
	s := describeAction(a)
	if a.Namespace != "" && a.Namespace != "default" && (a.Target.Name != "" || a.Pod != "") {
		s += " -n " + a.Namespace
	}
	return s
}

func describeAction(a scenario.Action) string {
	switch a.Type {
	case scenario.ActionSetRollingUpdate, scenario.ActionSetStrategy, scenario.ActionSetMinReadySeconds, scenario.ActionSetProgressDeadline:
		return "patch " + a.Target.String() + patchFields(a)
	case scenario.ActionSetResources:
		s := "set resources " + a.Target.String() + containerFlag(a)
		if a.Resources != nil {
			s += resourceFlag("--requests", a.Resources.Requests) + resourceFlag("--limits", a.Resources.Limits)
		}
		return s
	case scenario.ActionSetEnv:
		s := "set env " + a.Target.String() + containerFlag(a)
		for _, e := range a.Env {
			if e.Remove {
				s += " " + e.Name + "-"
			} else {
				s += " " + e.Name + "=" + e.Value
			}
		}
		return s
	case scenario.ActionApply:
		return fmt.Sprintf("apply %d object(s)", len(a.Manifest))
	case scenario.ActionScale:
		return fmt.Sprintf("scale %s to %d", a.Target, a.Replicas)
	case scenario.ActionSetImage:
		c := a.Container
		if c == "" {
			c = "(first container)"
		}
		return fmt.Sprintf("set image %s %s=%s", a.Target, c, a.Image)
	case scenario.ActionPause:
		return "rollout pause " + a.Target.String()
	case scenario.ActionResume:
		return "rollout resume " + a.Target.String()
	case scenario.ActionRestart:
		return "rollout restart " + a.Target.String()
	case scenario.ActionUndo:
		s := "rollout undo " + a.Target.String()
		if a.ToRevision != 0 {
			s += " --to-revision=" + strconv.FormatInt(a.ToRevision, 10)
		}
		return s
	case scenario.ActionDelete:
		return describeDelete(a)
	case scenario.ActionRemoveFinalizer:
		return "remove finalizer " + a.Finalizer + " from " + a.Target.String()
	case scenario.ActionWriteStatus:
		return fmt.Sprintf("write status.replicas=%d of %s via %s", a.Replicas, a.Target, a.Via)
	case scenario.ActionDeletePod:
		return "delete pod/" + a.Pod
	case scenario.ActionFailNode:
		return "fail node " + a.Node
	case scenario.ActionRecoverNode:
		return "recover node " + a.Node
	case scenario.ActionSetImageProfile:
		return "image " + a.Image + " becomes " + profileWord(a)
	}
	return a.Type.String()
}

func cascadeFlag(policy string) string {
	switch policy {
	case "Foreground":
		return "foreground"
	case "Orphan":
		return "orphan"
	}
	return "background"
}

func profileWord(a scenario.Action) string { return a.Profile.Summary() }

// patchFields renders the fields a patch action sets: " strategy=Recreate
// maxSurge=25%", " minReadySeconds=10".
func patchFields(a scenario.Action) string {
	s := ""
	switch a.Type {
	case scenario.ActionSetStrategy:
		s += " strategy=" + string(a.Strategy)
	case scenario.ActionSetMinReadySeconds:
		s += " minReadySeconds=" + strconv.Itoa(int(a.MinReadySeconds))
	case scenario.ActionSetProgressDeadline:
		s += " progressDeadlineSeconds=" + strconv.Itoa(int(a.ProgressDeadlineSeconds))
	}
	if a.MaxSurge != nil {
		s += " maxSurge=" + a.MaxSurge.String()
	}
	if a.MaxUnavailable != nil {
		s += " maxUnavailable=" + a.MaxUnavailable.String()
	}
	return s
}

func containerFlag(a scenario.Action) string {
	if a.Container == "" {
		return ""
	}
	return " -c " + a.Container
}

// resourceFlag renders "--requests=cpu=250m,memory=64Mi" (keys sorted), or
// "" for an empty list.
func resourceFlag(flag string, rl corev1.ResourceList) string {
	if len(rl) == 0 {
		return ""
	}
	names := make([]string, 0, len(rl))
	for n := range rl {
		names = append(names, string(n))
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		q := rl[corev1.ResourceName(n)]
		parts[i] = n + "=" + q.String()
	}
	return " " + flag + "=" + strings.Join(parts, ",")
}
