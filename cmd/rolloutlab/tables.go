package main

import (
	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// getAllCommand is the command getAll renders.
const getAllCommand = "kubectl get deploy,rs,pods"

// noResources is kubectl's line when no object of any type asked for exists.
const noResources = "No resources found in default namespace.\n"

// getAll renders `kubectl get deploy,rs,pods` in the default namespace as
// kubectl prints several types at once (see kubectl.Get).
func getAll(sm *sim.Sim) string {
	srv := sm.Server()
	objs := kubectl.Objects{
		Deployments: srv.ListDeployments("default", nil),
		ReplicaSets: srv.ListReplicaSets("default", nil),
		Pods:        srv.ListPods("default", nil),
	}
	kinds := []apiserver.Resource{apiserver.Deployments, apiserver.ReplicaSets, apiserver.Pods}
	return kubectl.Get(kinds, objs, sm.Now(), kubectl.GetOptions{Namespace: "default"})
}
