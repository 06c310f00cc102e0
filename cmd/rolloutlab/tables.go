package main

import (
	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// noResources is kubectl's line when no object of any type asked for exists.
const noResources = "No resources found in default namespace.\n"

// tableNamespace is the namespace the timeline's tables list: the one
// namespace of the scenario's objects ("default" when they are all there, or
// there are none), or "" (all namespaces, -A) when they span several.
func tableNamespace(scen *scenario.Scenario) string {
	ns := ""
	for _, o := range scen.Objects {
		m, ok := o.Obj.(interface{ GetNamespace() string })
		if !ok {
			continue
		}
		switch {
		case ns == "":
			ns = m.GetNamespace()
		case ns != m.GetNamespace():
			return ""
		}
	}
	if ns == "" {
		return "default"
	}
	return ns
}

// getAllCommand is the command getAll renders for namespace ns.
func getAllCommand(ns string) string {
	switch ns {
	case "default":
		return "kubectl get deploy,rs,pods"
	case "":
		return "kubectl get deploy,rs,pods -A"
	}
	return "kubectl get deploy,rs,pods -n " + ns
}

// getAll renders `kubectl get deploy,rs,pods` in namespace ns ("": -A) as
// kubectl prints several types at once (see kubectl.Get).
func getAll(sm *sim.Sim, ns string) string {
	srv := sm.Server()
	objs := kubectl.Objects{
		Deployments: srv.ListDeployments(ns, nil),
		ReplicaSets: srv.ListReplicaSets(ns, nil),
		Pods:        srv.ListPods(ns, nil),
	}
	kinds := []apiserver.Resource{apiserver.Deployments, apiserver.ReplicaSets, apiserver.Pods}
	return kubectl.Get(kinds, objs, sm.Now(), kubectl.GetOptions{Namespace: ns, AllNamespaces: ns == ""})
}
