package apiserver

import (
	"strconv"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Request is the trace payload of one API request (source "apiserver").
type Request struct {
	// Actor is who made the request, e.g. "replicaset-controller".
	Actor string `json:"actor"`
	// Verb is create, update, delete or patch.
	Verb string `json:"verb"`
	// Resource is the REST resource with its subresource, if any:
	// "deployments/status" for a status write, "deployments/scale" for
	// kubectl scale.
	Resource string `json:"resource"`
	// Namespace is empty for cluster-scoped objects.
	Namespace string `json:"namespace,omitempty"`
	// Name of the object (the generated name after a create).
	Name string `json:"name"`
	// RV is the object's resourceVersion after the request; 0 on error.
	RV uint64 `json:"rv,omitempty"`
	// Code is the HTTP status code the real server would answer.
	Code int32 `json:"code"`
	// Error is the status message; empty on success.
	Error string `json:"error,omitempty"`
}

// Kind implements trace.Payload.
func (Request) Kind() trace.Kind { return trace.KindAPI }

// Text renders e.g.
// "replicaset-controller create pods default/web-7c5d-x8k2p -> 201 rv=12".
func (r Request) Text() string {
	s := r.Actor + " " + r.Verb + " " + r.Resource + " " + objectKey(r.Namespace, r.Name) + " -> " + strconv.Itoa(int(r.Code))
	if r.Error != "" {
		return s + " " + r.Error
	}
	return s + " rv=" + strconv.FormatUint(r.RV, 10)
}
