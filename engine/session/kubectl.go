package session

import (
	"errors"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/kubectl"
)

// ErrUnknownCommand is returned for a kubectl command the views do not offer.
var ErrUnknownCommand = errors.New("unknown command")

// KubectlCommands lists the read-only kubectl commands Kubectl understands.
var KubectlCommands = []string{
	"get pods [-o wide]", "get rs [-o wide]", "get deploy [-o wide]",
	"describe deployment NAME", "describe rs NAME",
	"rollout status deployment/NAME", "rollout history deployment/NAME",
}

// Kubectl renders a read-only kubectl command against the current state of
// the default namespace, exactly as kubectl prints it.
func (s *Session) Kubectl(command string) (string, error) {
	f := strings.Fields(command)
	if len(f) > 0 && f[0] == "kubectl" {
		f = f[1:]
	}
	srv, now := s.sim.Server(), s.sim.Now()
	wide := len(f) == 4 && f[2] == "-o" && f[3] == "wide"
	bad := fmt.Errorf("%w %q; try one of: %s", ErrUnknownCommand, clipEcho(command), strings.Join(KubectlCommands, ", "))
	if len(f) < 2 {
		return "", bad
	}
	switch f[0] + " " + resourceAlias(f[1]) {
	case "get pods":
		if len(f) == 2 || wide {
			return kubectl.GetPods(srv.ListPods("default", nil), now, wide), nil
		}
	case "get replicasets":
		if len(f) == 2 || wide {
			return kubectl.GetReplicaSets(srv.ListReplicaSets("default", nil), now, wide), nil
		}
	case "get deployments":
		if len(f) == 2 || wide {
			return kubectl.GetDeployments(srv.ListDeployments("default", nil), now, wide), nil
		}
	case "describe deployments":
		if len(f) == 3 {
			d, err := srv.GetDeployment("default", f[2])
			if err != nil {
				return "", err
			}
			return kubectl.DescribeDeployment(d, srv.ListReplicaSets("default", nil), eventsFor(srv.ListEvents("default"), d.UID), now), nil
		}
	case "describe replicasets":
		if len(f) == 3 {
			rs, err := srv.GetReplicaSet("default", f[2])
			if err != nil {
				return "", err
			}
			return kubectl.DescribeReplicaSet(rs, srv.ListPods("default", nil), eventsFor(srv.ListEvents("default"), rs.UID), now), nil
		}
	case "rollout status", "rollout history":
		if len(f) == 3 {
			kind, name, ok := strings.Cut(f[2], "/")
			if !ok || resourceAlias(kind) != "deployments" {
				return "", bad
			}
			d, err := srv.GetDeployment("default", name)
			if err != nil {
				return "", err
			}
			if f[1] == "status" {
				text, _ := kubectl.RolloutStatus(d)
				return text, nil
			}
			return kubectl.RolloutHistory(d, ownedBy(srv.ListReplicaSets("default", nil), d)), nil
		}
	}
	return "", bad
}

func resourceAlias(s string) string {
	switch s {
	case "po", "pod", "pods":
		return "pods"
	case "rs", "replicaset", "replicasets":
		return "replicasets"
	case "deploy", "deployment", "deployments":
		return "deployments"
	}
	return s
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

func ownedBy(rss []*appsv1.ReplicaSet, d *appsv1.Deployment) []*appsv1.ReplicaSet {
	var out []*appsv1.ReplicaSet
	for _, rs := range rss {
		if ref := metav1.GetControllerOfNoCopy(rs); ref != nil && ref.UID == d.UID {
			out = append(out, rs)
		}
	}
	return out
}
