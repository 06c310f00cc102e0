package kubectl

import (
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
)

// objects decodes "---"-separated YAML documents of Pods, ReplicaSets,
// Deployments and Events.
type objects struct {
	pods   []*corev1.Pod
	rss    []*appsv1.ReplicaSet
	ds     []*appsv1.Deployment
	events []*corev1.Event
}

func decodeObjects(t *testing.T, d *datadriven.TestData) objects {
	var out objects
	for _, doc := range strings.Split(d.Input, "\n---\n") {
		var tm struct{ Kind string }
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			d.Fatalf(t, "%v", err)
		}
		var err error
		switch tm.Kind {
		case "Pod":
			p := &corev1.Pod{}
			err = yaml.UnmarshalStrict([]byte(doc), p)
			out.pods = append(out.pods, p)
		case "ReplicaSet":
			rs := &appsv1.ReplicaSet{}
			err = yaml.UnmarshalStrict([]byte(doc), rs)
			out.rss = append(out.rss, rs)
		case "Deployment":
			dep := &appsv1.Deployment{}
			err = yaml.UnmarshalStrict([]byte(doc), dep)
			out.ds = append(out.ds, dep)
		case "Event":
			e := &corev1.Event{}
			err = yaml.UnmarshalStrict([]byte(doc), e)
			out.events = append(out.events, e)
		default:
			d.Fatalf(t, "unknown kind %q", tm.Kind)
		}
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
	}
	return out
}

// TestViews runs testdata/views/*.txt. Every command takes now=<duration
// since clock.Epoch>; objects carry creationTimestamps relative to the same
// epoch (2026-01-01T00:00:00Z).
func TestViews(t *testing.T) {
	datadriven.Walk(t, "testdata/views", func(t *testing.T, path string) {
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			nowArg, _ := d.Arg("now")
			off, err := time.ParseDuration(nowArg)
			if err != nil {
				d.Fatalf(t, "now=%q: %v", nowArg, err)
			}
			now := clock.Epoch.Add(off)
			wide := d.HasArg("wide")
			o := decodeObjects(t, d)
			switch d.Cmd {
			case "get-pods":
				return GetPods(o.pods, now, wide)
			case "get-rs":
				return GetReplicaSets(o.rss, now, wide)
			case "get-deploy":
				return GetDeployments(o.ds, now, wide)
			case "describe-deploy":
				return DescribeDeployment(o.ds[0], o.rss, o.events, now)
			case "describe-rs":
				return DescribeReplicaSet(o.rss[0], o.pods, o.events, now)
			case "rollout-status":
				var b strings.Builder
				for _, dep := range o.ds {
					text, done := RolloutStatus(dep)
					b.WriteString(text)
					if done {
						b.WriteString(" [done]")
					}
					b.WriteString("\n")
				}
				return b.String()
			case "rollout-history":
				var ho HistoryOptions
				if v, ok := d.Arg("revision"); ok {
					ho.Revision, _ = strconv.ParseInt(v, 10, 64)
				}
				ho.Names = d.HasArg("names")
				out, err := RolloutHistory(o.ds[0], o.rss, ho)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				return out
			case "get":
				return Get(argResources(t, d), Objects{Deployments: o.ds, ReplicaSets: o.rss, Pods: o.pods}, now, getOptions(d))
			}
			d.Fatalf(t, "unknown command %q", d.Cmd)
			return ""
		})
	})
}

// argResources reads kinds=(deployments,replicasets,pods).
func argResources(t *testing.T, d *datadriven.TestData) []apiserver.Resource {
	var out []apiserver.Resource
	for _, a := range d.CmdArgs {
		if a.Key != "kinds" {
			continue
		}
		for _, v := range a.Values {
			out = append(out, apiserver.Resource(v))
		}
	}
	if len(out) == 0 {
		d.Fatalf(t, "get needs kinds=(...)")
	}
	return out
}

// getOptions reads ns=NS, all-namespaces, wide, names, show-labels,
// L=(k1,k2) and no-headers.
func getOptions(d *datadriven.TestData) GetOptions {
	o := GetOptions{Namespace: "default", AllNamespaces: d.HasArg("all-namespaces"), Wide: d.HasArg("wide"),
		Names: d.HasArg("names"), ShowLabels: d.HasArg("show-labels"), NoHeaders: d.HasArg("no-headers")}
	if ns, ok := d.Arg("ns"); ok {
		o.Namespace = ns
	}
	for _, a := range d.CmdArgs {
		if a.Key == "L" {
			o.LabelColumns = append(o.LabelColumns, a.Values...)
		}
	}
	return o
}

// Examples from age's doc comment, and the HumanDuration steps kubectl's
// AGE column shows.
func TestAge(t *testing.T) {
	now := clock.Epoch.Add(1000 * time.Hour)
	for _, c := range []struct {
		ago  time.Duration
		want string
	}{
		{0, "0s"}, {59 * time.Second, "59s"}, {150 * time.Second, "2m30s"}, {10 * time.Minute, "10m"},
		{11700 * time.Second, "3h15m"}, {53 * time.Hour, "2d5h"}, {9 * 24 * time.Hour, "9d"},
	} {
		ts := metaTime(now.Add(-c.ago))
		if got := age(ts, now); got != c.want {
			t.Errorf("age(%s ago) = %q, want %q", c.ago, got, c.want)
		}
	}
	if got := age(metaTime(time.Time{}), now); got != "<unknown>" {
		t.Errorf("zero time: %q", got)
	}
}

func metaTime(t time.Time) metav1.Time { return metav1.Time{Time: t} }
