package refmanager

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Client is the part of the API server a Manager uses. *apiserver.Server
// implements it; tests may wrap it to inject failures.
type Client interface {
	// Get is a live read (used by CanAdopt).
	Get(res apiserver.Resource, ns, name string) (apiserver.Object, error)
	// AdoptObject sends the adopt patch of BEHAVIOR §5.3.
	AdoptObject(actor string, res apiserver.Resource, ns, name string, dependentUID types.UID, owner metav1.OwnerReference) (apiserver.Object, error)
	// ReleaseObject sends the release patch of BEHAVIOR §5.3.
	ReleaseObject(actor string, res apiserver.Resource, ns, name string, dependentUID, ownerUID types.UID) (apiserver.Object, error)
}

var _ Client = (*apiserver.Server)(nil)

// Env is what a Manager needs from its controller.
type Env struct {
	// Client sends the live GET and the patches.
	Client Client
	// Rec receives the ClaimDecision and CanAdoptCheck records; nil records
	// nothing.
	Rec *trace.Recorder
	// Actor names the controller in API requests and is the trace source,
	// e.g. "replicaset-controller".
	Actor string
}

func (e Env) emit(p trace.Payload) {
	if e.Rec != nil {
		e.Rec.Emit(e.Actor, p)
	}
}
