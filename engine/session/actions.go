package session

import (
	"fmt"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// apply creates or updates one scenario object as `kubectl apply` would.
func apply(sm *sim.Sim, obj scenario.Object) (string, error) {
	return kubectl.New(sm.Server(), sm.Clock()).Apply(obj.Obj)
}

// resourceOf maps a scenario kind to the API resource.
func resourceOf(k scenario.Kind) apiserver.Resource {
	switch k {
	case scenario.KindDeployment:
		return apiserver.Deployments
	case scenario.KindReplicaSet:
		return apiserver.ReplicaSets
	}
	return apiserver.Pods
}

// perform carries out one action against the simulation: kubectl actions as
// API requests, cluster actions through the pod lifecycle model.
func perform(sm *sim.Sim, a scenario.Action) (string, error) {
	k := kubectl.New(sm.Server(), sm.Clock())
	ns, name := a.Namespace, a.Target.Name
	if ns == "" {
		ns = "default"
	}
	if name != "" {
		if err := checkTarget(sm.Server(), a.Target.Kind, ns, name); err != nil {
			return "", err
		}
	}
	if a.Type == scenario.ActionDeletePod {
		if err := checkTarget(sm.Server(), scenario.KindPod, ns, a.Pod); err != nil {
			return "", err
		}
	}
	switch a.Type {
	case scenario.ActionApply:
		var msgs string
		for _, obj := range a.Manifest {
			msg, err := apply(sm, obj)
			if err != nil {
				return msgs, err
			}
			if msgs != "" {
				msgs += "; "
			}
			msgs += msg
		}
		return msgs, nil
	case scenario.ActionScale:
		return k.Scale(resourceOf(a.Target.Kind), ns, name, a.Replicas)
	case scenario.ActionSetImage:
		return k.SetImage(ns, name, a.Container, a.Image)
	case scenario.ActionPause:
		return k.Pause(ns, name)
	case scenario.ActionResume:
		return k.Resume(ns, name)
	case scenario.ActionRestart:
		return k.Restart(ns, name)
	case scenario.ActionUndo:
		return k.Undo(ns, name, a.ToRevision)
	case scenario.ActionDelete:
		if a.Options != nil {
			return deleteWithOptions(sm, a)
		}
		return k.Delete(resourceOf(a.Target.Kind), ns, name, a.PropagationPolicy)
	case scenario.ActionRemoveFinalizer:
		return removeFinalizer(sm, a)
	case scenario.ActionWriteStatus:
		return writeStatus(sm, a)
	case scenario.ActionDeletePod:
		return k.DeletePod(ns, a.Pod)
	case scenario.ActionFailNode:
		if err := sm.Kubelet().FailNode(a.Node); err != nil {
			return "", err
		}
		return "node/" + a.Node + " stopped responding", nil
	case scenario.ActionRecoverNode:
		if err := sm.Kubelet().RecoverNode(a.Node); err != nil {
			return "", err
		}
		return "node/" + a.Node + " is back", nil
	case scenario.ActionSetRollingUpdate:
		return k.SetRollingUpdate(ns, name, a.MaxSurge, a.MaxUnavailable)
	case scenario.ActionSetStrategy:
		return k.SetStrategy(ns, name, a.Strategy, a.MaxSurge, a.MaxUnavailable)
	case scenario.ActionSetMinReadySeconds:
		return k.SetMinReadySeconds(ns, name, a.MinReadySeconds)
	case scenario.ActionSetProgressDeadline:
		return k.SetProgressDeadline(ns, name, a.ProgressDeadlineSeconds)
	case scenario.ActionSetResources:
		return k.SetResources(ns, name, a.Container, a.Resources.Requests, a.Resources.Limits)
	case scenario.ActionSetEnv:
		return k.SetEnv(ns, name, a.Container, a.Env)
	case scenario.ActionSetImageProfile:
		sm.Kubelet().SetImageProfile(a.Image, a.Profile)
		return "image " + a.Image + " is now " + profileWord(a), nil
	}
	return "", fmt.Errorf("unsupported action %s", a.Type)
}
