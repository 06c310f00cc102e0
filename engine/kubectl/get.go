package kubectl

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GetPods renders `kubectl get pods` (wide: `-o wide`) for pods, in the
// order given: NAME READY STATUS RESTARTS AGE, plus IP NODE NOMINATED NODE
// READINESS GATES when wide. RESTARTS reads "3 (2m ago)" once a container
// has terminated. No pods prints kubectl's "No resources found in default
// namespace." line.
func GetPods(pods []*corev1.Pod, now time.Time, wide bool) string {
	if len(pods) == 0 {
		return "No resources found in default namespace.\n"
	}
	var b strings.Builder
	w := newTableWriter(&b)
	fmt.Fprint(w, "NAME\tREADY\tSTATUS\tRESTARTS\tAGE")
	if wide {
		fmt.Fprint(w, "\tIP\tNODE\tNOMINATED NODE\tREADINESS GATES")
	}
	fmt.Fprintln(w)
	for _, p := range pods {
		row := podStatus(p)
		restarts := fmt.Sprint(row.restarts)
		if !row.lastRestart.IsZero() {
			restarts = fmt.Sprintf("%d (%s ago)", row.restarts, age(row.lastRestart, now))
		}
		fmt.Fprintf(w, "%s\t%d/%d\t%s\t%s\t%s", p.Name, row.ready, row.total, row.status, restarts, age(p.CreationTimestamp, now))
		if wide {
			ip, node, nominated := orNone(p.Status.PodIP), orNone(p.Spec.NodeName), orNone(p.Status.NominatedNodeName)
			gates := "<none>"
			if n := len(p.Spec.ReadinessGates); n > 0 {
				gates = fmt.Sprintf("%d/%d", readinessGatesTrue(p), n)
			}
			fmt.Fprintf(w, "\t%s\t%s\t%s\t%s", ip, node, nominated, gates)
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	return b.String()
}

func readinessGatesTrue(p *corev1.Pod) int {
	n := 0
	for _, g := range p.Spec.ReadinessGates {
		for _, c := range p.Status.Conditions {
			if c.Type == g.ConditionType && c.Status == corev1.ConditionTrue {
				n++
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

// GetReplicaSets renders `kubectl get rs`: NAME DESIRED CURRENT READY AGE,
// plus CONTAINERS IMAGES SELECTOR when wide.
func GetReplicaSets(rss []*appsv1.ReplicaSet, now time.Time, wide bool) string {
	if len(rss) == 0 {
		return "No resources found in default namespace.\n"
	}
	var b strings.Builder
	w := newTableWriter(&b)
	fmt.Fprint(w, "NAME\tDESIRED\tCURRENT\tREADY\tAGE")
	if wide {
		fmt.Fprint(w, "\tCONTAINERS\tIMAGES\tSELECTOR")
	}
	fmt.Fprintln(w)
	for _, rs := range rss {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%s", rs.Name, replicasOf(rs.Spec.Replicas), rs.Status.Replicas, rs.Status.ReadyReplicas, age(rs.CreationTimestamp, now))
		if wide {
			names, images := containerColumns(&rs.Spec.Template.Spec)
			fmt.Fprintf(w, "\t%s\t%s\t%s", names, images, metav1.FormatLabelSelector(rs.Spec.Selector))
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	return b.String()
}

// GetDeployments renders `kubectl get deploy`: NAME READY UP-TO-DATE
// AVAILABLE AGE (READY is status.readyReplicas/spec.replicas), plus
// CONTAINERS IMAGES SELECTOR when wide.
func GetDeployments(ds []*appsv1.Deployment, now time.Time, wide bool) string {
	if len(ds) == 0 {
		return "No resources found in default namespace.\n"
	}
	var b strings.Builder
	w := newTableWriter(&b)
	fmt.Fprint(w, "NAME\tREADY\tUP-TO-DATE\tAVAILABLE\tAGE")
	if wide {
		fmt.Fprint(w, "\tCONTAINERS\tIMAGES\tSELECTOR")
	}
	fmt.Fprintln(w)
	for _, d := range ds {
		fmt.Fprintf(w, "%s\t%d/%d\t%d\t%d\t%s", d.Name, d.Status.ReadyReplicas, replicasOf(d.Spec.Replicas), d.Status.UpdatedReplicas, d.Status.AvailableReplicas, age(d.CreationTimestamp, now))
		if wide {
			names, images := containerColumns(&d.Spec.Template.Spec)
			fmt.Fprintf(w, "\t%s\t%s\t%s", names, images, metav1.FormatLabelSelector(d.Spec.Selector))
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	return b.String()
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
