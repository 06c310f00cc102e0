package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/rolloutlab/rolloutlab/engine/session"
)

// writeState writes the state format of `run`: every Deployment,
// ReplicaSet, Pod and Event at the end of the run (all namespaces, each type
// in name order, events in creation order) as one Kubernetes v1 List, the
// way `kubectl get deploy,rs,pods,events -o json` prints it: apiVersion and
// kind set on every item, keys in alphabetical order (kubectl prints
// unstructured objects), four-space indentation. The list's
// metadata.resourceVersion is the API server's latest resourceVersion at
// the end of the run (kubectl prints "" there for a mixed list).
func writeState(w io.Writer, s *session.Session) error {
	srv := s.Sim().Server()
	var items []any
	for _, d := range srv.ListDeployments("", nil) {
		d = d.DeepCopy()
		d.APIVersion, d.Kind = "apps/v1", "Deployment"
		items = append(items, d)
	}
	for _, rs := range srv.ListReplicaSets("", nil) {
		rs = rs.DeepCopy()
		rs.APIVersion, rs.Kind = "apps/v1", "ReplicaSet"
		items = append(items, rs)
	}
	for _, p := range srv.ListPods("", nil) {
		p = p.DeepCopy()
		p.APIVersion, p.Kind = "v1", "Pod"
		items = append(items, p)
	}
	for _, ev := range srv.ListEvents("") {
		ev = ev.DeepCopy()
		ev.APIVersion, ev.Kind = "v1", "Event"
		items = append(items, ev)
	}
	list := map[string]any{
		"apiVersion": "v1",
		"kind":       "List",
		"metadata":   map[string]any{"resourceVersion": strconv.FormatUint(srv.ResourceVersion(), 10)},
	}
	unstructured := make([]any, 0, len(items))
	for _, item := range items {
		u, err := toUnstructured(item)
		if err != nil {
			return err
		}
		unstructured = append(unstructured, u)
	}
	list["items"] = unstructured
	b, err := json.MarshalIndent(list, "", "    ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// toUnstructured turns a typed object into generic JSON values (maps sort
// their keys when marshalled), keeping numbers exact.
func toUnstructured(obj any) (any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var u any
	err = dec.Decode(&u)
	return u, err
}
