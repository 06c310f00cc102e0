package kubectl

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

// GetOptions are the `kubectl get` flags the views honour.
type GetOptions struct {
	// Namespace is the namespace listed (-n; "default" without it); it
	// names the "No resources found in <ns> namespace." line.
	Namespace string
	// AllNamespaces (-A) adds the NAMESPACE column; nothing found then
	// reads "No resources found".
	AllNamespaces bool
	// Wide (-o wide) adds each kind's wide columns.
	Wide bool
	// Names (-o name) prints "<kind>.<group>/<name>" lines instead of
	// tables.
	Names bool
	// ShowLabels (--show-labels) adds a LABELS column.
	ShowLabels bool
	// LabelColumns (-L key[,key]) adds one column per label key, headed
	// by the key's last path segment upper-cased.
	LabelColumns []string
	// NoHeaders (--no-headers) drops the header rows and the blank lines
	// between kinds.
	NoHeaders bool
}

// Objects are what `kubectl get` lists, each kind in the API server's list
// order (namespace, then name).
type Objects struct {
	Deployments []*appsv1.Deployment
	ReplicaSets []*appsv1.ReplicaSet
	Pods        []*corev1.Pod
}

// table is one kind's rows before kubectl's decorations.
type table struct {
	// kind is the lower-case group-qualified kind: "deployment.apps".
	kind string
	// columns are the headers, wide ones included when wide.
	columns []string
	rows    []tableRow
}

type tableRow struct {
	namespace, name string
	labels          map[string]string
	// cells follow the NAME cell, one per column after NAME.
	cells []string
}

// Get renders `kubectl get KIND[,KIND...]` for kinds (Deployments,
// ReplicaSets, Pods, in the order asked) as kubectl 1.36 prints it: one
// table per kind that has objects, each with its own column widths,
// separated by a blank line; with several kinds every name carries its kind
// ("deployment.apps/web"). Decorations follow kubectl: NAMESPACE first
// with -A, then the kind's columns, -L columns, LABELS. When nothing at all
// is listed it prints kubectl's "No resources found in <ns> namespace."
// (which kubectl writes to stderr).
func Get(kinds []apiserver.Resource, objs Objects, now time.Time, o GetOptions) string {
	var b strings.Builder
	withKind := len(kinds) > 1
	for _, res := range kinds {
		t := kindTable(res, objs, now, o.Wide)
		if len(t.rows) == 0 {
			continue
		}
		if o.Names {
			for _, r := range t.rows {
				b.WriteString(t.kind + "/" + r.name + "\n")
			}
			continue
		}
		if b.Len() > 0 && !o.NoHeaders {
			b.WriteString("\n")
		}
		writeTable(&b, t, withKind, o)
	}
	if b.Len() == 0 {
		if o.AllNamespaces {
			return "No resources found\n"
		}
		ns := o.Namespace
		if ns == "" {
			ns = metav1.NamespaceDefault
		}
		return "No resources found in " + ns + " namespace.\n"
	}
	return b.String()
}

// writeTable prints one kind's table with a fresh tab writer.
func writeTable(b *strings.Builder, t table, withKind bool, o GetOptions) {
	w := newTableWriter(b)
	var header []string
	if o.AllNamespaces {
		header = append(header, "NAMESPACE")
	}
	header = append(header, "NAME")
	header = append(header, t.columns...)
	for _, key := range o.LabelColumns {
		parts := strings.Split(key, "/")
		header = append(header, strings.ToUpper(parts[len(parts)-1]))
	}
	if o.ShowLabels {
		header = append(header, "LABELS")
	}
	if !o.NoHeaders {
		fmt.Fprint(w, strings.Join(header, "\t")+"\n")
	}
	for _, r := range t.rows {
		var cells []string
		if o.AllNamespaces {
			cells = append(cells, r.namespace)
		}
		name := r.name
		if withKind {
			name = t.kind + "/" + name
		}
		cells = append(cells, name)
		cells = append(cells, r.cells...)
		for _, key := range o.LabelColumns {
			cells = append(cells, r.labels[key])
		}
		if o.ShowLabels {
			cells = append(cells, labels.FormatLabels(r.labels))
		}
		fmt.Fprint(w, strings.Join(cells, "\t")+"\n")
	}
	w.Flush()
}

// kindTable builds the rows of one kind.
func kindTable(res apiserver.Resource, objs Objects, now time.Time, wide bool) table {
	switch res {
	case apiserver.Deployments:
		return deploymentTable(objs.Deployments, now, wide)
	case apiserver.ReplicaSets:
		return replicaSetTable(objs.ReplicaSets, now, wide)
	case apiserver.Pods:
		return podTable(objs.Pods, now, wide)
	}
	return table{kind: KindName(res)}
}

// GetPods renders `kubectl get pods` (-o wide when wide) in the default
// namespace; see Get.
func GetPods(pods []*corev1.Pod, now time.Time, wide bool) string {
	return Get([]apiserver.Resource{apiserver.Pods}, Objects{Pods: pods}, now, GetOptions{Wide: wide})
}

// GetReplicaSets renders `kubectl get rs`; see Get.
func GetReplicaSets(rss []*appsv1.ReplicaSet, now time.Time, wide bool) string {
	return Get([]apiserver.Resource{apiserver.ReplicaSets}, Objects{ReplicaSets: rss}, now, GetOptions{Wide: wide})
}

// GetDeployments renders `kubectl get deploy`; see Get.
func GetDeployments(ds []*appsv1.Deployment, now time.Time, wide bool) string {
	return Get([]apiserver.Resource{apiserver.Deployments}, Objects{Deployments: ds}, now, GetOptions{Wide: wide})
}

// podTable: NAME READY STATUS RESTARTS AGE, plus IP NODE NOMINATED NODE
// READINESS GATES when wide. RESTARTS reads "3 (2m ago)" once a counted
// container has terminated before.
func podTable(pods []*corev1.Pod, now time.Time, wide bool) table {
	t := table{kind: "pod", columns: []string{"READY", "STATUS", "RESTARTS", "AGE"}}
	if wide {
		t.columns = append(t.columns, "IP", "NODE", "NOMINATED NODE", "READINESS GATES")
	}
	for _, p := range pods {
		st := podStatus(p)
		restarts := fmt.Sprint(st.restarts)
		if st.restarts != 0 && !st.lastRestart.IsZero() {
			restarts = fmt.Sprintf("%d (%s ago)", st.restarts, age(st.lastRestart, now))
		}
		cells := []string{fmt.Sprintf("%d/%d", st.ready, st.total), st.status, restarts, age(p.CreationTimestamp, now)}
		if wide {
			gates := "<none>"
			if n := len(p.Spec.ReadinessGates); n > 0 {
				gates = fmt.Sprintf("%d/%d", readinessGatesTrue(p), n)
			}
			cells = append(cells, orNone(podIP(p)), orNone(p.Spec.NodeName), orNone(p.Status.NominatedNodeName), gates)
		}
		t.rows = append(t.rows, tableRow{namespace: p.Namespace, name: p.Name, labels: p.Labels, cells: cells})
	}
	return t
}

// podIP is the first of status.podIPs, which kubectl shows; a pod that has
// only the legacy status.podIP shows that.
func podIP(p *corev1.Pod) string {
	if len(p.Status.PodIPs) > 0 {
		return p.Status.PodIPs[0].IP
	}
	return p.Status.PodIP
}

// readinessGatesTrue counts the gates whose condition (the first of that
// type) is True.
func readinessGatesTrue(p *corev1.Pod) int {
	n := 0
	for _, g := range p.Spec.ReadinessGates {
		for _, c := range p.Status.Conditions {
			if c.Type == g.ConditionType {
				if c.Status == corev1.ConditionTrue {
					n++
				}
				break
			}
		}
	}
	return n
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// replicaSetTable: NAME DESIRED CURRENT READY AGE, plus CONTAINERS IMAGES
// SELECTOR when wide.
func replicaSetTable(rss []*appsv1.ReplicaSet, now time.Time, wide bool) table {
	t := table{kind: "replicaset.apps", columns: []string{"DESIRED", "CURRENT", "READY", "AGE"}}
	if wide {
		t.columns = append(t.columns, "CONTAINERS", "IMAGES", "SELECTOR")
	}
	for _, rs := range rss {
		cells := []string{fmt.Sprint(replicasOf(rs.Spec.Replicas)), fmt.Sprint(rs.Status.Replicas), fmt.Sprint(rs.Status.ReadyReplicas), age(rs.CreationTimestamp, now)}
		if wide {
			names, images := containerColumns(&rs.Spec.Template.Spec)
			cells = append(cells, names, images, metav1.FormatLabelSelector(rs.Spec.Selector))
		}
		t.rows = append(t.rows, tableRow{namespace: rs.Namespace, name: rs.Name, labels: rs.Labels, cells: cells})
	}
	return t
}

// deploymentTable: NAME READY UP-TO-DATE AVAILABLE AGE (READY is
// status.readyReplicas/spec.replicas), plus CONTAINERS IMAGES SELECTOR when
// wide.
func deploymentTable(ds []*appsv1.Deployment, now time.Time, wide bool) table {
	t := table{kind: "deployment.apps", columns: []string{"READY", "UP-TO-DATE", "AVAILABLE", "AGE"}}
	if wide {
		t.columns = append(t.columns, "CONTAINERS", "IMAGES", "SELECTOR")
	}
	for _, d := range ds {
		cells := []string{fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, replicasOf(d.Spec.Replicas)), fmt.Sprint(d.Status.UpdatedReplicas), fmt.Sprint(d.Status.AvailableReplicas), age(d.CreationTimestamp, now)}
		if wide {
			names, images := containerColumns(&d.Spec.Template.Spec)
			cells = append(cells, names, images, metav1.FormatLabelSelector(d.Spec.Selector))
		}
		t.rows = append(t.rows, tableRow{namespace: d.Namespace, name: d.Name, labels: d.Labels, cells: cells})
	}
	return t
}

// replicasOf dereferences spec.replicas (nil reads 0 as kubectl prints it
// for an undefaulted object).
func replicasOf(r *int32) int32 {
	if r == nil {
		return 0
	}
	return *r
}

func containerColumns(spec *corev1.PodSpec) (names, images string) {
	var n, i []string
	for _, c := range spec.Containers {
		n = append(n, c.Name)
		i = append(i, c.Image)
	}
	return strings.Join(n, ","), strings.Join(i, ",")
}
