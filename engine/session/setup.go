package session

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// setupActor is who restores pasted cluster state in the trace.
const setupActor = "setup"

// setupOrder is the order set-up creates objects in: file order, except that
// when the file holds pasted cluster state, owners come before what they own
// (Deployments, then ReplicaSets, then Pods, each in file order), so that
// owner references can point at the owners' simulated UIDs.
func setupOrder(objs []scenario.Object) []scenario.Object {
	live := false
	for _, o := range objs {
		live = live || o.Live
	}
	if !live {
		return objs
	}
	out := append([]scenario.Object(nil), objs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind() < out[j].Kind() })
	return out
}

// restore stores one object of pasted cluster state as it was, its owner
// references pointed at the owners created before it (by kind and name).
func restore(sm *sim.Sim, obj scenario.Object) (string, error) {
	srv := sm.Server()
	o := obj.Obj.DeepCopyObject().(apiserver.Object)
	refs := o.GetOwnerReferences()
	for i := range refs {
		res, ok := apiserver.ResourceForKind(refs[i].Kind)
		if !ok {
			continue
		}
		owner, err := srv.Get(res, o.GetNamespace(), refs[i].Name)
		if err != nil {
			return "", err
		}
		refs[i].UID = owner.GetUID()
	}
	o.SetOwnerReferences(refs)
	res := resourceOf(obj.Kind())
	out, err := srv.RestoreObject(setupActor, res, o)
	if err != nil {
		return "", err
	}
	return strings.ToLower(res.Kind()) + "/" + out.GetName() + " restored", nil // a filled-in pod's name is generated
}

// setupProblems turns the API server's refusal of obj into one problem per
// cause, each at the line of the field it names (a field the file does not
// give: its closest enclosing field that it does).
func setupProblems(file string, obj scenario.Object, err error) []*scenario.Error {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return []*scenario.Error{{File: file, Doc: obj.Doc, Line: obj.Line, Message: err.Error()}}
	}
	st := status.Status()
	if st.Details == nil || len(st.Details.Causes) == 0 || st.Reason != metav1.StatusReasonInvalid {
		return []*scenario.Error{{File: file, Doc: obj.Doc, Line: obj.Line, Message: err.Error()}}
	}
	who := st.Details.Kind + " " + strconv.Quote(st.Details.Name)
	if st.Details.Group != "" {
		who = st.Details.Kind + "." + st.Details.Group + " " + strconv.Quote(st.Details.Name)
	}
	out := make([]*scenario.Error, 0, len(st.Details.Causes))
	for _, c := range st.Details.Causes {
		out = append(out, &scenario.Error{File: file, Doc: obj.Doc, Line: obj.FieldLine(c.Field), Field: c.Field,
			Message: c.Message + " (API server: " + who + " is invalid)"})
	}
	return out
}
