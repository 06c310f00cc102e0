package main

import (
	"regexp"
	"strings"
	"text/tabwriter"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// getAllCommand is the command getAll renders.
const getAllCommand = "kubectl get deploy,rs,pods"

// getAllCommandIn is getAllCommand for namespace ns: "-n ns" is added
// unless ns is "default".
func getAllCommandIn(ns string) string {
	if ns == metav1.NamespaceDefault {
		return getAllCommand
	}
	return getAllCommand + " -n " + ns
}

// tablesNamespace is the namespace the tables show: that of the scenario's
// first Deployment (else its first object), so that a file whose objects
// live in "shop" shows them; "default" when there are none.
func tablesNamespace(scen *scenario.Scenario) string {
	for _, k := range []scenario.Kind{scenario.KindDeployment, 0} {
		for _, o := range scen.Objects {
			if k == 0 || o.Kind() == k {
				if m, ok := o.Obj.(interface{ GetNamespace() string }); ok && m.GetNamespace() != "" {
					return m.GetNamespace()
				}
			}
		}
	}
	return metav1.NamespaceDefault
}

// cellGap splits a rendered table row into cells: kubectl pads columns with
// at least three spaces, and no cell holds two spaces in a row.
var cellGap = regexp.MustCompile(` {2,}`)

// getAll renders `kubectl get deploy,rs,pods -n ns` as
// kubectl prints several types at once: one table per type that has
// objects, separated by blank lines, each name prefixed with its resource
// ("deployment.apps/web", "replicaset.apps/web-6d4b8c", "pod/web-6d4b8c-x2x"),
// or kubectl's "No resources found" line when there are none at all.
func getAll(sm *sim.Sim, ns string) string {
	srv, now := sm.Server(), sm.Now()
	ds := srv.ListDeployments(ns, nil)
	rss := srv.ListReplicaSets(ns, nil)
	pods := srv.ListPods(ns, nil)
	var blocks []string
	if len(ds) > 0 {
		blocks = append(blocks, prefixNames(kubectl.GetDeployments(ds, now, false), "deployment.apps/"))
	}
	if len(rss) > 0 {
		blocks = append(blocks, prefixNames(kubectl.GetReplicaSets(rss, now, false), "replicaset.apps/"))
	}
	if len(pods) > 0 {
		blocks = append(blocks, prefixNames(kubectl.GetPods(pods, now, false), "pod/"))
	}
	if len(blocks) == 0 {
		return "No resources found in " + ns + " namespace.\n"
	}
	return strings.Join(blocks, "\n")
}

// prefixNames puts prefix before every name of a rendered table (not the
// header) and realigns the columns with kubectl's table layout.
//
//	NAME   READY   STATUS            NAME       READY   STATUS
//	test   1/1     Running     →     pod/test   1/1     Running
func prefixNames(table, prefix string) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	for i, line := range strings.Split(strings.TrimSuffix(table, "\n"), "\n") {
		cells := cellGap.Split(strings.TrimRight(line, " "), -1)
		if i > 0 {
			cells[0] = prefix + cells[0]
		}
		w.Write([]byte(strings.Join(cells, "\t") + "\n"))
	}
	w.Flush()
	return b.String()
}
