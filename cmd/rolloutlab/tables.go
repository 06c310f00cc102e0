package main

import (
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// getAllCommand is the command getAll renders.
const getAllCommand = "kubectl get deploy,rs,pods"

// noResources is kubectl's line when no object of any type asked for exists.
const noResources = "No resources found in default namespace.\n"

// cellGap splits a rendered table row into cells: kubectl pads columns with
// at least three spaces, and no cell holds two spaces in a row.
var cellGap = regexp.MustCompile(` {2,}`)

// getAll renders `kubectl get deploy,rs,pods` in the default namespace as
// kubectl prints several types at once: one table per type that has
// objects, separated by blank lines, each name prefixed with its resource
// ("deployment.apps/web", "replicaset.apps/web-6d4b8c", "pod/web-6d4b8c-x2x"),
// or kubectl's "No resources found" line when there are none at all.
func getAll(sm *sim.Sim) string {
	srv, now := sm.Server(), sm.Now()
	ds := srv.ListDeployments("default", nil)
	rss := srv.ListReplicaSets("default", nil)
	pods := srv.ListPods("default", nil)
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
		return noResources
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
