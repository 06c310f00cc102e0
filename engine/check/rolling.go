package check

import (
	"fmt"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/kubelet"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// Violation is one broken invariant.
type Violation struct {
	Step       int    `json:"step"`
	Deployment string `json:"deployment"`
	Invariant  string `json:"invariant"`
	Detail     string `json:"detail"`
}

func (v Violation) String() string {
	return fmt.Sprintf("step %d: %s: %s: %s", v.Step, v.Deployment, v.Invariant, v.Detail)
}

// window is an open rollout of one Deployment.
type window struct {
	// template is the hash of the pod template being rolled out.
	template string
	// replicas, surge, unavailable and minReady are fixed for the window.
	replicas, surge, unavailable, minReady int32
	// excuse, when set, says why availability is no longer enforced.
	excuse string
}

// deploymentState is what the checker remembers between steps.
type deploymentState struct {
	template string
	// fullyAvailable: at the end of the last step, every pod of the
	// Deployment was of the current template and available, and there were
	// exactly replicas of them.
	fullyAvailable bool
	open           *window
}

// RollingChecker checks rolling-update invariants after every step.
type RollingChecker struct {
	// states by Deployment key.
	states map[string]*deploymentState
}

// NewRollingChecker returns a checker with no history.
func NewRollingChecker() *RollingChecker {
	return &RollingChecker{states: map[string]*deploymentState{}}
}

// AfterStep checks the cluster after step, given the records the step
// produced, and returns the violations found.
func (c *RollingChecker) AfterStep(srv *apiserver.Server, now time.Time, step int, records []trace.Record) []Violation {
	excuse := foreignFailure(records)
	var out []Violation
	seen := map[string]bool{}
	deployments := srv.ListDeployments("", nil)
	if len(deployments) == 0 && len(c.states) == 0 {
		return nil
	}
	rss := srv.ListReplicaSets("", nil)
	pods := srv.ListPods("", nil)
	rsOwner := map[types.UID]types.UID{} // RS UID -> Deployment UID
	for _, rs := range rss {
		if ref := metav1.GetControllerOfNoCopy(rs); ref != nil && ref.Kind == "Deployment" {
			rsOwner[rs.UID] = ref.UID
		}
	}
	podsOf := map[types.UID][]*corev1.Pod{}
	for _, p := range pods {
		if ref := metav1.GetControllerOfNoCopy(p); ref != nil && ref.Kind == "ReplicaSet" {
			if d, ok := rsOwner[ref.UID]; ok {
				podsOf[d] = append(podsOf[d], p)
			}
		}
	}
	for _, d := range deployments {
		key := d.Namespace + "/" + d.Name
		seen[key] = true
		st := c.states[key]
		if st == nil {
			st = &deploymentState{}
			c.states[key] = st
		}
		hash := deployutil.ComputeHash(&d.Spec.Template, nil)
		rolling := d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType && !d.Spec.Paused && d.DeletionTimestamp == nil
		replicas := int32(1)
		if d.Spec.Replicas != nil {
			replicas = *d.Spec.Replicas
		}
		if st.open != nil && (!rolling || replicas != st.open.replicas || hash != st.open.template) {
			st.open = nil // the rules changed mid-flight
		}
		if st.open == nil && rolling && st.template != "" && hash != st.template && st.fullyAvailable {
			st.open = &window{template: hash, replicas: replicas, surge: deployutil.MaxSurge(d), unavailable: deployutil.MaxUnavailable(d), minReady: d.Spec.MinReadySeconds}
		}
		active, available, current := 0, 0, 0
		for _, p := range podsOf[d.UID] {
			if !podutil.IsPodActive(p) {
				continue
			}
			active++
			if podutil.IsPodAvailable(p, d.Spec.MinReadySeconds, now) {
				available++
				if templateMatches(p, d) {
					current++
				}
			}
		}
		if w := st.open; w != nil {
			if excuse != "" && w.excuse == "" {
				w.excuse = excuse
			}
			if max := w.replicas + w.surge; int32(active) > max {
				out = append(out, Violation{Step: step, Deployment: key, Invariant: "surge",
					Detail: fmt.Sprintf("%d active pods > replicas %d + maxSurge %d", active, w.replicas, w.surge)})
			}
			if min := w.replicas - w.unavailable; w.excuse == "" && int32(available) < min {
				out = append(out, Violation{Step: step, Deployment: key, Invariant: "availability",
					Detail: fmt.Sprintf("%d available pods < replicas %d - maxUnavailable %d", available, w.replicas, w.unavailable)})
			}
		}
		st.template = hash
		st.fullyAvailable = int32(current) == replicas && int32(active) == replicas
		if st.open != nil && st.fullyAvailable {
			st.open = nil
		}
	}
	for key := range c.states {
		if !seen[key] {
			delete(c.states, key)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Deployment < out[j].Deployment })
	return out
}

// templateMatches reports whether the pod runs the Deployment's current
// containers (compared by image, which is what rollouts in scenarios change,
// plus the restartedAt annotation).
func templateMatches(p *corev1.Pod, d *appsv1.Deployment) bool {
	if len(p.Spec.Containers) != len(d.Spec.Template.Spec.Containers) {
		return false
	}
	for i, c := range d.Spec.Template.Spec.Containers {
		if p.Spec.Containers[i].Image != c.Image {
			return false
		}
	}
	const restartedAt = "kubectl.kubernetes.io/restartedAt"
	return p.Annotations[restartedAt] == d.Spec.Template.Annotations[restartedAt]
}

// foreignFailure returns why a step's records excuse availability: a pod
// failed on its own (a container crashed or was killed by its liveness
// probe, a readiness probe failed, a node failed or its pods turned NotReady
// or were evicted) or something other than the controllers deleted
// an object (kubectl, the node controller). It reads the typed payloads, not
// their text.
func foreignFailure(records []trace.Record) string {
	for _, r := range records {
		switch p := r.Data.(type) {
		case kubelet.Transition:
			switch p.What {
			case "crashed", "killed", "unready", "node-failed", "not-ready", "evicted":
				return p.Text()
			}
		case apiserver.Request:
			if p.Verb == "delete" && (p.Actor == "kubectl" || p.Actor == "node-controller") {
				return p.Text()
			}
		}
	}
	return ""
}
