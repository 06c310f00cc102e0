package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"

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
//
// The list is written one item at a time, each converted and indented as
// json.MarshalIndent would inside the whole list, so that a large cluster's
// state is never held twice in memory.
func writeState(w io.Writer, s *session.Session) error {
	srv := s.Sim().Server()
	lw := &listWriter{w: w}
	for _, d := range srv.ListDeployments("", nil) {
		d = d.DeepCopy()
		d.APIVersion, d.Kind = "apps/v1", "Deployment"
		lw.item(d)
	}
	for _, rs := range srv.ListReplicaSets("", nil) {
		rs = rs.DeepCopy()
		rs.APIVersion, rs.Kind = "apps/v1", "ReplicaSet"
		lw.item(rs)
	}
	for _, p := range srv.ListPods("", nil) {
		p = p.DeepCopy()
		p.APIVersion, p.Kind = "v1", "Pod"
		lw.item(p)
	}
	for _, ev := range srv.ListEvents("") {
		ev.APIVersion, ev.Kind = "v1", "Event" // ListEvents returns copies
		lw.item(ev)
	}
	return lw.end(strconv.FormatUint(srv.ResourceVersion(), 10))
}

// listWriter writes a v1 List as json.MarshalIndent(list, "", "    ")
// writes the map {apiVersion, items, kind, metadata} (keys in that,
// alphabetical, order), one item at a time. After an error it writes
// nothing more and err keeps the error.
type listWriter struct {
	w io.Writer
	// n is the number of items written.
	n   int
	err error
}

// Indentation of the list's keys and of its items, as MarshalIndent with
// a four-space indent puts them.
const (
	listKeyIndent  = "    "
	listItemIndent = "        "
)

// item writes one item: obj converted to generic JSON values.
func (lw *listWriter) item(obj any) {
	if lw.err != nil {
		return
	}
	u, err := toUnstructured(obj)
	if err == nil {
		var b []byte
		b, err = json.MarshalIndent(u, listItemIndent, listKeyIndent)
		if err == nil {
			head := ",\n" + listItemIndent
			if lw.n == 0 {
				head = "{\n" + listKeyIndent + `"apiVersion": "v1",` + "\n" + listKeyIndent + `"items": [` + "\n" + listItemIndent
			}
			if _, err = io.WriteString(lw.w, head); err == nil {
				_, err = lw.w.Write(b)
			}
		}
	}
	lw.n++
	lw.err = err
}

// end closes the items and writes the kind and metadata.
func (lw *listWriter) end(resourceVersion string) error {
	if lw.err != nil {
		return lw.err
	}
	rv, err := json.Marshal(resourceVersion)
	if err != nil {
		return err
	}
	var b strings.Builder
	if lw.n == 0 {
		b.WriteString("{\n" + listKeyIndent + `"apiVersion": "v1",` + "\n" + listKeyIndent + `"items": [],` + "\n")
	} else {
		b.WriteString("\n" + listKeyIndent + "],\n")
	}
	b.WriteString(listKeyIndent + `"kind": "List",` + "\n")
	b.WriteString(listKeyIndent + `"metadata": {` + "\n" + listItemIndent + `"resourceVersion": ` + string(rv) + "\n" + listKeyIndent + "}\n}\n")
	_, err = io.WriteString(lw.w, b.String())
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
