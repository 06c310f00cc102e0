package session

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/kubectl"
	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// Actions that send API requests kubectl has no verb of its own for: a
// DELETE with explicit options, a finalizer removal and a status write.
// They are made as the client "kubectl" (kubectl delete --raw, kubectl
// patch, kubectl replace --subresource).

// deleteWithOptions sends a DELETE whose options are exactly a.Options
// (none at all for an empty mapping): `deployment.apps "web" deleted`.
func deleteWithOptions(sm *sim.Sim, a scenario.Action) (string, error) {
	res := resourceOf(a.Target.Kind)
	opts := apiserver.DeleteOptions{PropagationPolicy: a.Options.PropagationPolicy, OrphanDependents: a.Options.OrphanDependents}
	if err := sm.Server().Delete(kubectl.Actor, res, a.Namespace, a.Target.Name, opts); err != nil {
		return "", err
	}
	return kubectl.KindName(res) + " " + strconv.Quote(a.Target.Name) + " deleted", nil
}

// removeFinalizer patches one finalizer away: "pod/web-x patched", or
// "patched (no change)" when it was not there.
func removeFinalizer(sm *sim.Sim, a scenario.Action) (string, error) {
	res := resourceOf(a.Target.Kind)
	before, err := sm.Server().Get(res, a.Namespace, a.Target.Name)
	if err != nil {
		return "", err
	}
	after, err := sm.Server().RemoveFinalizer(kubectl.Actor, res, a.Namespace, a.Target.Name, a.Finalizer)
	if err != nil {
		return "", err
	}
	name := kubectl.KindName(res) + "/" + a.Target.Name
	if after.GetResourceVersion() == before.GetResourceVersion() {
		return name + " patched (no change)", nil
	}
	return name + " patched", nil
}

// writeStatus sends the stored object with status.replicas set to
// a.Replicas, to the /status subresource or to the main resource (where
// the API server keeps the stored status). The message says which
// happened.
func writeStatus(sm *sim.Sim, a scenario.Action) (string, error) {
	srv, ns, name := sm.Server(), a.Namespace, a.Target.Name
	var stored int32
	switch a.Target.Kind {
	case scenario.KindDeployment:
		cur, err := srv.GetDeployment(ns, name)
		if err != nil {
			return "", err
		}
		d := cur.DeepCopy()
		d.Status.Replicas = a.Replicas
		update := srv.UpdateDeploymentStatus
		if a.Via == scenario.ViaMain {
			update = srv.UpdateDeployment
		}
		out, err := update(kubectl.Actor, d)
		if err != nil {
			return "", err
		}
		stored = out.Status.Replicas
	case scenario.KindReplicaSet:
		cur, err := srv.GetReplicaSet(ns, name)
		if err != nil {
			return "", err
		}
		rs := cur.DeepCopy()
		rs.Status.Replicas = a.Replicas
		update := srv.UpdateReplicaSetStatus
		if a.Via == scenario.ViaMain {
			update = srv.UpdateReplicaSet
		}
		out, err := update(kubectl.Actor, rs)
		if err != nil {
			return "", err
		}
		stored = out.Status.Replicas
	default:
		return "", fmt.Errorf("writeStatus: unsupported kind %s", a.Target.Kind)
	}
	obj := kubectl.KindName(resourceOf(a.Target.Kind)) + "/" + name
	if stored != a.Replicas {
		return fmt.Sprintf("%s replaced; status.replicas %d ignored (status is written only through /status; it stays %d)", obj, a.Replicas, stored), nil
	}
	return fmt.Sprintf("%s status replaced (status.replicas %d)", obj, stored), nil
}

// describeDelete renders a delete entry: kubectl's --cascade flag for a
// known policy, else the request's options as sent.
func describeDelete(a scenario.Action) string {
	if o := a.Options; o != nil {
		var parts []string
		if o.PropagationPolicy != nil {
			parts = append(parts, "propagationPolicy="+string(*o.PropagationPolicy))
		}
		if o.OrphanDependents != nil {
			parts = append(parts, "orphanDependents="+strconv.FormatBool(*o.OrphanDependents))
		}
		if len(parts) == 0 {
			return "delete " + a.Target.String() + " (no delete options)"
		}
		return "delete " + a.Target.String() + " (" + strings.Join(parts, ", ") + ")"
	}
	switch p := string(a.PropagationPolicy); p {
	case "", "Background", "Foreground", "Orphan":
		return fmt.Sprintf("delete %s --cascade=%s", a.Target, cascadeFlag(p))
	default:
		return fmt.Sprintf("delete %s (propagationPolicy=%s)", a.Target, p)
	}
}
