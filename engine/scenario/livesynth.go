package scenario

import (
	"maps"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/podutil"
)

// This file fills in what a pasted Deployment's status describes when the
// file holds none of its ReplicaSets or pods: `kubectl get deployment web
// -o yaml` is what an SRE pastes most, and without its ReplicaSet the
// simulated controller would create the ReplicaSet and every pod anew at
// the first step, so every what-if would start from an empty namespace.
//
// Only a settled Deployment is filled in: its status counts spec.replicas
// pods, all updated (of the current template), ready and available, so
// its running state is exactly one ReplicaSet of the current template with
// that many running, ready pods. For a Deployment in the middle of a
// rollout the old templates are not in the file; it is left as it is, and
// a notice says what that means and what to paste instead.

// fillRunning adds, for every live Deployment that settled and has no
// ReplicaSet or pod in the file, the ReplicaSet and pods its status
// describes, marked live and filled. pasted are the pasted pods' nodes
// (liveNodes makes them the cluster's, or adds them to the nodes the
// Scenario names); latest is the latest timestamp of the pasted objects.
// A status of no pods has nothing to fill in: the controller creates the
// pods, as it will in the cluster.
func (p *parser) fillRunning(s *Scenario, pasted []string, latest time.Time) {
	nodes := s.Cluster.Nodes // never empty
	if len(pasted) > 0 && !p.nodesGiven {
		nodes = pasted
	} else {
		for _, n := range pasted {
			if !contains(nodes, n) {
				nodes = append(nodes[:len(nodes):len(nodes)], n)
			}
		}
	}
	n := len(s.Objects)
	for i := 0; i < n; i++ {
		o := s.Objects[i]
		d, ok := o.Obj.(*appsv1.Deployment)
		if !ok || !o.Live || d.Status.Replicas == 0 || hasManaged(s.Objects[:n], d) {
			continue
		}
		replicas := int32(1)
		if d.Spec.Replicas != nil {
			replicas = *d.Spec.Replicas
		}
		if int(replicas) > s.Limits.MaxPods {
			continue // CheckLimits refuses the Deployment itself
		}
		st := d.Status
		why := ""
		switch {
		case d.Generation > 0 && st.ObservedGeneration < d.Generation:
			why = "its status describes generation " + strconv.FormatInt(st.ObservedGeneration, 10) + ", not the spec of generation " +
				strconv.FormatInt(d.Generation, 10) + " in the file"
		case replicas == 0 || st.Replicas != replicas || st.UpdatedReplicas != replicas:
			why = "its status (" + strconv.Itoa(int(st.Replicas)) + " pods, " + strconv.Itoa(int(st.UpdatedReplicas)) + " updated, of " +
				strconv.Itoa(int(replicas)) + " replicas) is a rollout or scaling in progress, whose older ReplicaSets the status does not describe"
		case st.ReadyReplicas != replicas || st.AvailableReplicas != replicas:
			why = "not all of its pods are ready and available (" + strconv.Itoa(int(st.ReadyReplicas)) + " ready, " +
				strconv.Itoa(int(st.AvailableReplicas)) + " available, of " + strconv.Itoa(int(replicas)) + ") and the status does not say which"
		}
		if why != "" {
			p.notify(Notice{Doc: o.Doc, Line: o.FieldLine("status"), Kind: "Deployment", Name: d.Name, Code: NoticeLive,
				Message: "cluster output: the file has none of its ReplicaSets or pods, and " + why + ": the simulation starts without them, " +
					"so the controller creates a ReplicaSet and its pods anew at the first steps. Paste `kubectl get deployment,replicaset,pod -n " +
					d.Namespace + " -o yaml` to start from the running state"})
			continue
		}
		since := runningSince(d, latest)
		rs, named := runningReplicaSet(d, replicas, since)
		s.Objects = append(s.Objects, Object{Obj: rs, Doc: o.Doc, Line: o.Line, Live: true, Filled: true})
		for k := range int(replicas) {
			pod := runningPod(rs, nodes[k%len(nodes)], since)
			s.Objects = append(s.Objects, Object{Obj: pod, Doc: o.Doc, Line: o.Line, Live: true, Filled: true})
		}
		name := "ReplicaSet " + rs.Name + " (named in its Progressing condition)"
		if !named {
			name = "ReplicaSet " + rs.Name + " (named by the simulator's template hash)"
		}
		readySince := ""
		if !since.IsZero() {
			readySince = ", ready since " + since.UTC().Format(time.RFC3339)
		}
		p.notify(Notice{Doc: o.Doc, Line: o.FieldLine("status"), Kind: "Deployment", Name: d.Name, Code: NoticeLive,
			Message: "cluster output: the file has none of its ReplicaSets or pods; its status (" + strconv.Itoa(int(replicas)) +
				" updated, ready and available) is taken as " + name + " of its current template (revision " +
				rs.Annotations[deployutil.RevisionAnnotation] + ") with " + strconv.Itoa(int(replicas)) + " running, ready pods" + readySince +
				", spread over the nodes " + strings.Join(nodes, ", ") +
				". An edit of the pasted template changes what runs; to roll a change out from this state, make it an action (the What if? room, " +
				"a timeline action, compare --set). Paste its ReplicaSets and pods too (`kubectl get deployment,replicaset,pod -n " + d.Namespace +
				" -o yaml`) to start from them instead"})
	}
}

// hasManaged reports whether objs hold a ReplicaSet or pod that d owns or
// that its selector matches in its namespace: then the file gives (part
// of) the running state and nothing is filled in.
func hasManaged(objs []Object, d *appsv1.Deployment) bool {
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		sel = labels.Nothing()
	}
	for _, o := range objs {
		if o.Kind() == KindDeployment {
			continue
		}
		m := metaOf(o)
		if m.Namespace != d.Namespace {
			continue
		}
		if c := controllerOf(m); c != nil && c.Kind == "Deployment" && c.Name == d.Name || sel.Matches(labels.Set(m.Labels)) {
			return true
		}
	}
	return false
}

// runningSince is when the filled-in pods became ready: when the
// Deployment last made progress (its Progressing condition's last update:
// the rollout that made them finished then), else when it was created,
// else latest; and at least minReadySeconds before latest, so that they
// are available at the start as the status says.
func runningSince(d *appsv1.Deployment, latest time.Time) time.Time {
	since := d.CreationTimestamp.Time
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing && !c.LastUpdateTime.IsZero() {
			since = c.LastUpdateTime.Time
		}
	}
	if since.IsZero() {
		since = latest
	}
	if minReady := time.Duration(d.Spec.MinReadySeconds) * time.Second; !latest.IsZero() && latest.Sub(since) < minReady {
		since = latest.Add(-minReady)
	}
	return since
}

// runningReplicaSet is the ReplicaSet of d's current template with replicas
// ready pods, as the Deployment controller would have left it
// (deployutil.NewReplicaSet, sized and annotated with d's revision and
// counts). Its hash, and so its name, is the one d's Progressing condition
// gives when it names a ReplicaSet of d (the cluster's); named is false
// when the simulator's hash of the template is used instead. The
// controller finds it by its template either way.
func runningReplicaSet(d *appsv1.Deployment, replicas int32, since time.Time) (rs *appsv1.ReplicaSet, named bool) {
	hash, named := progressedHash(d)
	if !named {
		hash = deployutil.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	}
	rs = deployutil.NewReplicaSet(d, hash)
	rs.TypeMeta = metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}
	rs.CreationTimestamp = metav1.NewTime(since)
	rs.Generation = 1
	rs.Spec.Replicas = &replicas
	rs.Status = appsv1.ReplicaSetStatus{Replicas: replicas, FullyLabeledReplicas: replicas, ReadyReplicas: replicas,
		AvailableReplicas: replicas, ObservedGeneration: 1}
	revision := d.Annotations[deployutil.RevisionAnnotation]
	if _, err := strconv.ParseInt(revision, 10, 64); err != nil {
		revision = "1"
	}
	deployutil.SetNewReplicaSetAnnotations(d, rs, revision, false, deployutil.RevisionHistoryLimitChars)
	return rs, named
}

// progressedHash reads the pod-template hash from the ReplicaSet name in
// d's Progressing condition (`ReplicaSet "web-5d4f8b" has successfully
// progressed.`), when it is d's name, a dash and a hash of lower-case
// letters and digits.
func progressedHash(d *appsv1.Deployment) (string, bool) {
	for _, c := range d.Status.Conditions {
		if c.Type != appsv1.DeploymentProgressing {
			continue
		}
		rest, ok := strings.CutPrefix(c.Message, `ReplicaSet "`+d.Name+"-")
		if !ok {
			return "", false
		}
		hash, _, ok := strings.Cut(rest, `"`)
		if !ok || hash == "" || len(hash) > 10 {
			return "", false
		}
		for _, r := range hash {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
				return "", false
			}
		}
		return hash, true
	}
	return "", false
}

// runningPod is a pod of rs running on node, ready since since. Its name
// is generated when set-up restores it, as for any pod a ReplicaSet makes.
func runningPod(rs *appsv1.ReplicaSet, node string, since time.Time) *corev1.Pod {
	at := metav1.NewTime(since)
	pod := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			GenerateName:      rs.Name + "-",
			Namespace:         rs.Namespace,
			Labels:            maps.Clone(rs.Spec.Template.Labels),
			Annotations:       maps.Clone(rs.Spec.Template.Annotations),
			CreationTimestamp: at,
			OwnerReferences:   []metav1.OwnerReference{*podutil.NewControllerRef(rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))},
		},
		Spec: *rs.Spec.Template.Spec.DeepCopy(),
	}
	// The API server merged its matchLabelKeys into its affinity terms
	// when it was created on the cluster, as for any pod.
	podutil.MergeAffinityLabelKeys(pod)
	pod.Spec.NodeName = node
	pod.Status.Phase = corev1.PodRunning
	pod.Status.StartTime = &at
	for _, c := range []corev1.PodConditionType{corev1.PodScheduled, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady} {
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: c, Status: corev1.ConditionTrue, LastTransitionTime: at})
	}
	started := true
	for _, c := range pod.Spec.Containers {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: true,
			Started: &started, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at}}})
	}
	return pod
}
