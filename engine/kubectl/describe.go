package kubectl

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DescribeDeployment renders `kubectl describe deployment`: the header
// fields, Replicas line, strategy, Pod Template, Conditions table,
// OldReplicaSets (every other ReplicaSet d controls, those scaled to 0
// included, oldest first, as kubectl lists them since 1.27), NewReplicaSet
// and the Events table of the events given (those involving d, oldest
// first).
func DescribeDeployment(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, events []*corev1.Event, now time.Time) string {
	var b strings.Builder
	w := newDescribeWriter(&b)
	fmt.Fprintf(w, "Name:\t%s\n", d.Name)
	fmt.Fprintf(w, "Namespace:\t%s\n", d.Namespace)
	fmt.Fprintf(w, "CreationTimestamp:\t%s\n", d.CreationTimestamp.Time.Format(time.RFC1123Z))
	writeLabels(w, "Labels", d.Labels, "")
	writeAnnotations(w, "Annotations", d.Annotations, "")
	fmt.Fprintf(w, "Selector:\t%s\n", metav1.FormatLabelSelector(d.Spec.Selector))
	st := d.Status
	fmt.Fprintf(w, "Replicas:\t%d desired | %d updated | %d total | %d available | %d unavailable\n",
		replicasOf(d.Spec.Replicas), st.UpdatedReplicas, st.Replicas, st.AvailableReplicas, st.UnavailableReplicas)
	fmt.Fprintf(w, "StrategyType:\t%s\n", d.Spec.Strategy.Type)
	fmt.Fprintf(w, "MinReadySeconds:\t%d\n", d.Spec.MinReadySeconds)
	if ru := d.Spec.Strategy.RollingUpdate; d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType && ru != nil {
		fmt.Fprintf(w, "RollingUpdateStrategy:\t%s max unavailable, %s max surge\n", ru.MaxUnavailable.String(), ru.MaxSurge.String())
	}
	writePodTemplate(w, &d.Spec.Template)
	if len(st.Conditions) > 0 {
		fmt.Fprint(w, "Conditions:\n  Type\tStatus\tReason\n")
		fmt.Fprint(w, "  ----\t------\t------\n")
		for _, c := range st.Conditions {
			fmt.Fprintf(w, "  %v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	newRS, old := splitReplicaSets(d, rss)
	fmt.Fprintf(w, "OldReplicaSets:\t%s\n", replicaSetSummary(old))
	var news []*appsv1.ReplicaSet
	if newRS != nil {
		news = append(news, newRS)
	}
	fmt.Fprintf(w, "NewReplicaSet:\t%s\n", replicaSetSummary(news))
	writeEvents(w, events, now)
	w.Flush()
	return b.String()
}

// replicaSetSummary renders "web-abc (10/10 replicas created), ..." or
// "<none>".
func replicaSetSummary(rss []*appsv1.ReplicaSet) string {
	var parts []string
	for _, rs := range rss {
		parts = append(parts, fmt.Sprintf("%s (%d/%d replicas created)", rs.Name, rs.Status.Replicas, replicasOf(rs.Spec.Replicas)))
	}
	return joinOrNone(parts, ", ")
}

// DescribeReplicaSet renders `kubectl describe rs`: Name, Namespace,
// Selector, Labels, Annotations, Controlled By, Replicas ("10 current / 10
// desired"), Pods Status (phase counts of the given pods that the RS
// controls), Pod Template, Conditions and Events.
func DescribeReplicaSet(rs *appsv1.ReplicaSet, pods []*corev1.Pod, events []*corev1.Event, now time.Time) string {
	var b strings.Builder
	w := newDescribeWriter(&b)
	fmt.Fprintf(w, "Name:\t%s\n", rs.Name)
	fmt.Fprintf(w, "Namespace:\t%s\n", rs.Namespace)
	fmt.Fprintf(w, "Selector:\t%s\n", metav1.FormatLabelSelector(rs.Spec.Selector))
	writeLabels(w, "Labels", rs.Labels, "")
	writeAnnotations(w, "Annotations", rs.Annotations, "")
	if ref := metav1.GetControllerOf(rs); ref != nil {
		fmt.Fprintf(w, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	fmt.Fprintf(w, "Replicas:\t%d current / %d desired\n", rs.Status.Replicas, replicasOf(rs.Spec.Replicas))
	var running, waiting, succeeded, failed int
	for _, p := range pods {
		if ref := metav1.GetControllerOf(p); ref == nil || ref.UID != rs.UID {
			continue
		}
		switch p.Status.Phase {
		case corev1.PodRunning:
			running++
		case corev1.PodPending:
			waiting++
		case corev1.PodSucceeded:
			succeeded++
		case corev1.PodFailed:
			failed++
		}
	}
	fmt.Fprintf(w, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", running, waiting, succeeded, failed)
	writePodTemplate(w, &rs.Spec.Template)
	if len(rs.Status.Conditions) > 0 {
		fmt.Fprint(w, "Conditions:\n  Type\tStatus\tReason\n")
		fmt.Fprint(w, "  ----\t------\t------\n")
		for _, c := range rs.Status.Conditions {
			fmt.Fprintf(w, "  %v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	writeEvents(w, events, now)
	w.Flush()
	return b.String()
}

// writeLabels writes "title:\tk=v" with further labels on continuation
// lines that start with a tab (kubectl writes no indent there), sorted by
// key; "<none>" when empty.
func writeLabels(w io.Writer, title string, m map[string]string, indent string) {
	fmt.Fprintf(w, "%s%s:\t", indent, title)
	if len(m) == 0 {
		fmt.Fprint(w, "<none>\n")
		return
	}
	for i, k := range sortedKeys(m) {
		if i > 0 {
			fmt.Fprint(w, "\t")
		}
		fmt.Fprintf(w, "%s=%s\n", k, m[k])
	}
}

// maxAnnotationLen is the longest "key: value" kubectl prints on one line.
const maxAnnotationLen = 140

// writeAnnotations writes "title:\tk: v" pairs like writeLabels, leaving
// out kubectl.kubernetes.io/last-applied-configuration. A pair longer than
// maxAnnotationLen, or a value with newlines, is written as "k:" and then
// one indented line per value line, each cut at 138 characters plus "...".
func writeAnnotations(w io.Writer, title string, m map[string]string, indent string) {
	fmt.Fprintf(w, "%s%s:\t", indent, title)
	var keys []string
	for _, k := range sortedKeys(m) {
		if k != lastAppliedAnnotation {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		fmt.Fprint(w, "<none>\n")
		return
	}
	for i, k := range keys {
		if i > 0 {
			fmt.Fprint(w, "\t")
		}
		v := strings.TrimSuffix(m[k], "\n")
		if len(k)+len(v)+2 <= maxAnnotationLen && !strings.Contains(v, "\n") {
			fmt.Fprintf(w, "%s: %s\n", k, v)
			continue
		}
		fmt.Fprintf(w, "%s:\n", k)
		for _, line := range strings.Split(v, "\n") {
			if len(line) > maxAnnotationLen-2 {
				line = line[:maxAnnotationLen-2] + "..."
			}
			fmt.Fprintf(w, "\t  %s\n", line)
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writePodTemplate writes the "Pod Template:" section.
func writePodTemplate(w io.Writer, t *corev1.PodTemplateSpec) {
	fmt.Fprint(w, "Pod Template:\n")
	writeLabels(w, "Labels", t.Labels, "  ")
	if len(t.Annotations) > 0 {
		writeAnnotations(w, "Annotations", t.Annotations, "  ")
	}
	if t.Spec.ServiceAccountName != "" {
		fmt.Fprintf(w, "  Service Account:\t%s\n", t.Spec.ServiceAccountName)
	}
	if len(t.Spec.InitContainers) > 0 {
		fmt.Fprint(w, "  Init Containers:\n")
		for _, c := range t.Spec.InitContainers {
			writeContainer(w, c)
		}
	}
	fmt.Fprint(w, "  Containers:\n")
	for _, c := range t.Spec.Containers {
		writeContainer(w, c)
	}
	fmt.Fprint(w, "  Volumes:\t<none>\n")
	writeLabels(w, "Node-Selectors", t.Spec.NodeSelector, "  ")
	fmt.Fprint(w, "  Tolerations:\t<none>\n")
}

// writeContainer writes one container of a template.
func writeContainer(w io.Writer, c corev1.Container) {
	fmt.Fprintf(w, "   %s:\n", c.Name)
	fmt.Fprintf(w, "    Image:\t%s\n", c.Image)
	var ports, hostPorts []string
	for _, p := range c.Ports {
		proto := p.Protocol
		if proto == "" {
			proto = corev1.ProtocolTCP
		}
		ports = append(ports, fmt.Sprintf("%d/%s", p.ContainerPort, proto))
		hostPorts = append(hostPorts, fmt.Sprintf("%d/%s", p.HostPort, proto))
	}
	// Several ports read "Ports:" and "Host Ports:", as kubectl labels them.
	plural := ""
	if len(ports) > 1 {
		plural = "s"
	}
	fmt.Fprintf(w, "    Port%s:\t%s\n", plural, joinOrNone(ports, ", "))
	fmt.Fprintf(w, "    Host Port%s:\t%s\n", plural, joinOrNone(hostPorts, ", "))
	if len(c.Command) > 0 {
		fmt.Fprint(w, "    Command:\n")
		for _, s := range c.Command {
			fmt.Fprintf(w, "      %s\n", s)
		}
	}
	if len(c.Args) > 0 {
		fmt.Fprint(w, "    Args:\n")
		for _, s := range c.Args {
			fmt.Fprintf(w, "      %s\n", s)
		}
	}
	writeResources(w, "Limits", c.Resources.Limits)
	writeResources(w, "Requests", c.Resources.Requests)
	for _, pr := range []struct {
		title string
		probe *corev1.Probe
	}{{"Liveness", c.LivenessProbe}, {"Readiness", c.ReadinessProbe}, {"Startup", c.StartupProbe}} {
		if p := pr.probe; p != nil {
			fmt.Fprintf(w, "    %s:\t%s delay=%ds timeout=%ds period=%ds #success=%d #failure=%d\n",
				pr.title, probeAction(p), p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
		}
	}
	if len(c.Env) == 0 {
		fmt.Fprint(w, "    Environment:\t<none>\n")
	} else {
		fmt.Fprint(w, "    Environment:\n")
		for _, e := range c.Env {
			fmt.Fprintf(w, "      %s:\t%s\n", e.Name, e.Value)
		}
	}
	fmt.Fprint(w, "    Mounts:\t<none>\n")
}

func writeResources(w io.Writer, title string, rl corev1.ResourceList) {
	if len(rl) == 0 {
		return
	}
	fmt.Fprintf(w, "    %s:\n", title)
	names := make([]string, 0, len(rl))
	for n := range rl {
		names = append(names, string(n))
	}
	sort.Strings(names)
	for _, n := range names {
		q := rl[corev1.ResourceName(n)]
		fmt.Fprintf(w, "      %s:\t%s\n", n, q.String())
	}
}

func probeAction(p *corev1.Probe) string {
	switch {
	case p.HTTPGet != nil:
		return fmt.Sprintf("http-get %s://%s:%s%s", strings.ToLower(string(p.HTTPGet.Scheme)), p.HTTPGet.Host, p.HTTPGet.Port.String(), p.HTTPGet.Path)
	case p.TCPSocket != nil:
		return fmt.Sprintf("tcp-socket %s:%s", p.TCPSocket.Host, p.TCPSocket.Port.String())
	case p.Exec != nil:
		return "exec " + fmt.Sprint(p.Exec.Command)
	}
	return "unknown"
}

// writeEvents writes the Events table, oldest last-seen first, or
// "Events:\t<none>".
func writeEvents(w io.Writer, events []*corev1.Event, now time.Time) {
	if len(events) == 0 {
		fmt.Fprint(w, "Events:\t<none>\n")
		return
	}
	sorted := append([]*corev1.Event(nil), events...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return sorted[i].LastTimestamp.Before(&sorted[j].LastTimestamp)
	})
	if f, ok := w.(interface{ Flush() error }); ok {
		f.Flush()
	}
	fmt.Fprint(w, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	fmt.Fprint(w, "  ----\t------\t----\t----\t-------\n")
	for _, e := range sorted {
		first := age(e.FirstTimestamp, now)
		if !e.EventTime.IsZero() {
			first = age(metav1.NewTime(e.EventTime.Time), now)
		}
		interval := first
		if e.Count > 1 {
			interval = fmt.Sprintf("%s (x%d over %s)", age(e.LastTimestamp, now), e.Count, first)
		}
		source := e.Source.Component
		if source == "" {
			source = e.ReportingController
		}
		fmt.Fprintf(w, "  %v\t%v\t%s\t%v\t%v\n", e.Type, e.Reason, interval, source, strings.TrimSpace(e.Message))
	}
}
