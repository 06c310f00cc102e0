package session

import (
	"errors"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/kubectl"
)

// ErrUnknownCommand is returned for a kubectl command the views do not offer.
var ErrUnknownCommand = errors.New("unknown command")

// KubectlCommands lists the read-only kubectl commands Kubectl understands;
// every one takes -n NS (--namespace), get also -A (--all-namespaces).
var KubectlCommands = []string{
	"get KIND[,KIND...] [NAME...] [-o wide|name] [--show-labels] [-L key,...] [--no-headers]",
	"describe deployment|rs NAME",
	"rollout status deployment/NAME",
	"rollout history deployment/NAME [--revision=N] [-o name]",
}

// Kubectl renders a read-only kubectl command against the current state,
// exactly as kubectl prints it (see KubectlCommands). Without -n it reads
// the default namespace, as kubectl does.
func (s *Session) Kubectl(command string) (string, error) {
	bad := fmt.Errorf("%w %q; try one of: %s", ErrUnknownCommand, clipEcho(command), strings.Join(KubectlCommands, "; "))
	verb, skip := "", false
	for _, w := range strings.Fields(command) {
		switch {
		case skip:
			skip = false
		case w == "-n" || w == "--namespace" || w == "-o" || w == "--output":
			skip = true
		case w != "kubectl" && !strings.HasPrefix(w, "-") && verb == "":
			verb = w
		}
	}
	if verb != "get" && verb != "describe" && verb != "rollout" {
		return "", bad
	}
	a, err := parseKubectl(command)
	if err != nil {
		return "", err
	}
	if len(a.words) < 2 {
		return "", bad
	}
	switch a.words[0] {
	case "get":
		return s.kubectlGet(a, bad)
	case "describe":
		if err := a.only("namespace"); err != nil {
			return "", err
		}
		res, name, ok := kindAndName(a.words[1:])
		if !ok {
			return "", bad
		}
		return s.kubectlDescribe(res, a.namespace, name, bad)
	case "rollout":
		if len(a.words) < 3 || (a.words[1] != "status" && a.words[1] != "history") {
			return "", bad
		}
		res, name, ok := kindAndName(a.words[2:])
		if !ok || res != apiserver.Deployments {
			return "", bad
		}
		srv := s.sim.Server()
		if a.words[1] == "status" {
			if err := a.only("namespace"); err != nil {
				return "", err
			}
			d, err := srv.GetDeployment(a.namespace, name)
			if err != nil {
				return "", fromServer(err)
			}
			text, _ := kubectl.RolloutStatus(d)
			return text, nil
		}
		if err := a.only("namespace", "revision", "output"); err != nil {
			return "", err
		}
		if a.output != "" && a.output != "name" {
			return "", fmt.Errorf("error: unable to match a printer suitable for the output format %q, allowed formats are: name", a.output)
		}
		d, err := srv.GetDeployment(a.namespace, name)
		if err != nil {
			return "", fromServer(err)
		}
		out, err := kubectl.RolloutHistory(d, srv.ListReplicaSets(a.namespace, nil), kubectl.HistoryOptions{Revision: a.revision, Names: a.output == "name"})
		if err != nil {
			return "", fmt.Errorf("error: %w", err)
		}
		return out, nil
	}
	return "", bad
}

// kubectlGet renders `get KIND[,KIND...] [NAME...]`.
func (s *Session) kubectlGet(a *kubectlArgs, bad error) (string, error) {
	if err := a.only("namespace", "all-namespaces", "output", "show-labels", "no-headers", "label-columns"); err != nil {
		return "", err
	}
	o := kubectl.GetOptions{Namespace: a.namespace, AllNamespaces: a.allNamespaces, ShowLabels: a.showLabels,
		NoHeaders: a.noHeaders, LabelColumns: a.labelColumns}
	switch a.output {
	case "":
	case "wide":
		o.Wide = true
	case "name":
		o.Names = true
	default:
		return "", fmt.Errorf("error: output format %q not supported here (use wide or name)", clipEcho(a.output))
	}
	var kinds []apiserver.Resource
	for _, k := range strings.Split(a.words[1], ",") {
		res, ok := resourceAlias(k)
		if !ok {
			return "", fmt.Errorf("error: the server doesn't have a resource type %q", clipEcho(k))
		}
		kinds = append(kinds, res)
	}
	ns := a.namespace
	if a.allNamespaces {
		ns = ""
	}
	if names := a.words[2:]; len(names) > 0 {
		if len(kinds) != 1 || a.allNamespaces {
			return "", bad
		}
		objs, err := s.named(kinds[0], a.namespace, names)
		if err != nil {
			return "", err
		}
		return kubectl.Get(kinds, objs, s.sim.Now(), o), nil
	}
	return kubectl.Get(kinds, s.listed(kinds, ns), s.sim.Now(), o), nil
}

// listed lists the objects of the kinds asked for in namespace ns (every
// namespace when ns is empty); kinds not asked for are not listed, so
// `get deployments` in a 10,000-pod cluster does not copy the pod list.
func (s *Session) listed(kinds []apiserver.Resource, ns string) kubectl.Objects {
	srv := s.sim.Server()
	var objs kubectl.Objects
	for _, res := range kinds {
		switch res {
		case apiserver.Deployments:
			if objs.Deployments == nil {
				objs.Deployments = srv.ListDeployments(ns, nil)
			}
		case apiserver.ReplicaSets:
			if objs.ReplicaSets == nil {
				objs.ReplicaSets = srv.ListReplicaSets(ns, nil)
			}
		case apiserver.Pods:
			if objs.Pods == nil {
				objs.Pods = srv.ListPods(ns, nil)
			}
		}
	}
	return objs
}

// named fetches the objects `get KIND NAME...` lists, in the order named.
func (s *Session) named(res apiserver.Resource, ns string, names []string) (kubectl.Objects, error) {
	srv := s.sim.Server()
	var objs kubectl.Objects
	for _, name := range names {
		var err error
		switch res {
		case apiserver.Deployments:
			var d *appsv1.Deployment
			if d, err = srv.GetDeployment(ns, name); err == nil {
				objs.Deployments = append(objs.Deployments, d)
			}
		case apiserver.ReplicaSets:
			var rs *appsv1.ReplicaSet
			if rs, err = srv.GetReplicaSet(ns, name); err == nil {
				objs.ReplicaSets = append(objs.ReplicaSets, rs)
			}
		case apiserver.Pods:
			var p *corev1.Pod
			if p, err = srv.GetPod(ns, name); err == nil {
				objs.Pods = append(objs.Pods, p)
			}
		}
		if err != nil {
			return objs, fromServer(err)
		}
	}
	return objs, nil
}

// kubectlDescribe renders `describe deployment|rs NAME`.
func (s *Session) kubectlDescribe(res apiserver.Resource, ns, name string, bad error) (string, error) {
	srv, now := s.sim.Server(), s.sim.Now()
	switch res {
	case apiserver.Deployments:
		d, err := srv.GetDeployment(ns, name)
		if err != nil {
			return "", fromServer(err)
		}
		return kubectl.DescribeDeployment(d, srv.ListReplicaSets(ns, nil), eventsFor(srv.ListEvents(ns), d.UID), now), nil
	case apiserver.ReplicaSets:
		rs, err := srv.GetReplicaSet(ns, name)
		if err != nil {
			return "", fromServer(err)
		}
		return kubectl.DescribeReplicaSet(rs, srv.ListPods(ns, nil), eventsFor(srv.ListEvents(ns), rs.UID), now), nil
	}
	return "", bad
}

// kindAndName reads "KIND NAME" or "KIND/NAME".
func kindAndName(words []string) (apiserver.Resource, string, bool) {
	var kind, name string
	switch {
	case len(words) == 1 && strings.Contains(words[0], "/"):
		kind, name, _ = strings.Cut(words[0], "/")
	case len(words) == 2 && !strings.Contains(words[0], "/"):
		kind, name = words[0], words[1]
	default:
		return "", "", false
	}
	res, ok := resourceAlias(kind)
	return res, name, ok && name != ""
}

// fromServer renders an API server error as kubectl prints it:
// `Error from server (NotFound): deployments.apps "web" not found`.
func fromServer(err error) error {
	var st *apierrors.StatusError
	if errors.As(err, &st) {
		return fmt.Errorf("Error from server (%s): %w", st.ErrStatus.Reason, err)
	}
	return err
}

func resourceAlias(s string) (apiserver.Resource, bool) {
	switch strings.ToLower(s) {
	case "po", "pod", "pods":
		return apiserver.Pods, true
	case "rs", "replicaset", "replicasets", "replicaset.apps", "replicasets.apps":
		return apiserver.ReplicaSets, true
	case "deploy", "deployment", "deployments", "deployment.apps", "deployments.apps":
		return apiserver.Deployments, true
	}
	return "", false
}

func eventsFor(events []*corev1.Event, uid types.UID) []*corev1.Event {
	var out []*corev1.Event
	for _, e := range events {
		if e.InvolvedObject.UID == uid {
			out = append(out, e)
		}
	}
	return out
}
