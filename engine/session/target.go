package session

import (
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
)

// maxTargetsListed bounds the "found:" list of a target error.
const maxTargetsListed = 8

// targetError is an action whose object does not exist in its namespace.
// Its message names what does exist, so a namespace mistake reads as one:
// `no deployment "web" in namespace default; found: shop/web`. It unwraps to
// the API server's NotFound.
type targetError struct {
	msg   string
	cause error
}

func (e *targetError) Error() string { return e.msg }
func (e *targetError) Unwrap() error { return e.cause }

// checkTarget returns a targetError when the object of kind k called name
// is missing from namespace ns, nil when it exists. The message lists the
// objects of that name in other namespaces or, when there are none, every
// object of the kind (at most maxTargetsListed).
func checkTarget(srv *apiserver.Server, k scenario.Kind, ns, name string) error {
	res := resourceOf(k)
	_, err := srv.Get(res, ns, name)
	if !apierrors.IsNotFound(err) {
		return nil
	}
	var all, same []string
	for _, o := range listAll(srv, res) {
		key := o.GetNamespace() + "/" + o.GetName()
		all = append(all, key)
		if o.GetName() == name {
			same = append(same, key)
		}
	}
	found := same
	if len(found) == 0 {
		found = all
	}
	msg := "no " + k.String() + " " + strconv.Quote(name) + " in namespace " + ns
	switch {
	case len(found) == 0:
		msg += "; there are no " + res.String()
	case len(found) > maxTargetsListed:
		msg += "; found: " + strings.Join(found[:maxTargetsListed], ", ") + ", ... (" + strconv.Itoa(len(found)) + " in all)"
	default:
		msg += "; found: " + strings.Join(found, ", ")
	}
	return &targetError{msg: msg, cause: err}
}

// listAll lists every object of res in every namespace, sorted by
// namespace/name.
func listAll(srv *apiserver.Server, res apiserver.Resource) []apiserver.Object {
	var out []apiserver.Object
	switch res {
	case apiserver.Deployments:
		for _, o := range srv.ListDeployments("", nil) {
			out = append(out, o)
		}
	case apiserver.ReplicaSets:
		for _, o := range srv.ListReplicaSets("", nil) {
			out = append(out, o)
		}
	case apiserver.Pods:
		for _, o := range srv.ListPods("", nil) {
			out = append(out, o)
		}
	}
	return out
}
