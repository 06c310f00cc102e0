package deployment

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// TestScenarios replays the golden scenarios in testdata/scenarios. Each
// file is a readable transcript of what the controller decides, writes and
// records. Regenerate with `go test -run TestScenarios -rewrite` and review
// every diff.
//
// Commands:
//
//	create name=web replicas=10 surge=3 unavailable=2 image=nginx:1 [strategy=Recreate] [deadline=30] [history=1]
//	set-image name=web image=nginx:2
//	scale name=web replicas=20
//	pause name=web / resume name=web
//	available rs=2 n=5   (the 2nd ReplicaSet by age reports replicas=spec, n available)
//	settle               (every ReplicaSet fully available)
//	sync                 (one worker iteration; prints the controller's records)
//	drain                (worker iterations until nothing is ready)
//	advance by=31s       (virtual time; due keys are promoted by the next sync)
//	rs                   (the stored ReplicaSets, oldest first)
//	deployment name=web  (status and conditions)
//	events               (events created since the last "events")
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		f := newFixture(t)
		seenEvents := 0
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			mark := f.rec.Len()
			name, _ := d.Arg("name")
			switch d.Cmd {
			case "create":
				replicas := argInt(t, d, "replicas")
				surge, _ := d.Arg("surge")
				unavailable, _ := d.Arg("unavailable")
				image, _ := d.Arg("image")
				dep := newDeployment(name, int32(replicas), surge, unavailable, image)
				if s, ok := d.Arg("strategy"); ok && s == "Recreate" {
					dep.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
				}
				if d.HasArg("deadline") {
					dep.Spec.ProgressDeadlineSeconds = ptr(int32(argInt(t, d, "deadline")))
				}
				if d.HasArg("history") {
					dep.Spec.RevisionHistoryLimit = ptr(int32(argInt(t, d, "history")))
				}
				f.create(dep)
			case "set-image":
				image, _ := d.Arg("image")
				f.mutate(name, func(dep *appsv1.Deployment) { dep.Spec.Template.Spec.Containers[0].Image = image })
			case "scale":
				n := int32(argInt(t, d, "replicas"))
				f.mutate(name, func(dep *appsv1.Deployment) { dep.Spec.Replicas = &n })
			case "pause", "resume":
				f.mutate(name, func(dep *appsv1.Deployment) { dep.Spec.Paused = d.Cmd == "pause" })
			case "available":
				rss := f.replicaSets()
				i := argInt(t, d, "rs")
				if i < 1 || i > len(rss) {
					d.Fatalf(t, "no ReplicaSet #%d", i)
				}
				f.setAvailable(rss[i-1].Name, int32(argInt(t, d, "n")))
			case "settle":
				f.settle()
			case "sync":
				f.deliver()
				f.dc.Queue().PromoteDue()
				if _, ok := f.dc.ProcessNextWorkItem(); !ok {
					return "nothing ready\n"
				}
				f.deliver()
				return controllerTranscript(f.rec.Records()[mark:])
			case "drain":
				n := f.drain()
				return controllerTranscript(f.rec.Records()[mark:]) + fmt.Sprintf("(%d syncs)\n", n)
			case "advance":
				by, _ := d.Arg("by")
				dur, err := time.ParseDuration(by)
				if err != nil {
					d.Fatalf(t, "%v", err)
				}
				f.advance(dur)
				return fmt.Sprintf("now %s\n", f.clock.Now().Sub(f.clock.Start()))
			case "rs":
				var b strings.Builder
				for i, rs := range f.replicaSets() {
					fmt.Fprintf(&b, "#%d %s spec=%d rev=%s desired=%s max=%s status=%d/%d\n", i+1, rs.Name, *rs.Spec.Replicas,
						rs.Annotations[deployutil.RevisionAnnotation], rs.Annotations[deployutil.DesiredReplicasAnnotation],
						rs.Annotations[deployutil.MaxReplicasAnnotation], rs.Status.AvailableReplicas, rs.Status.Replicas)
				}
				return b.String()
			case "deployment":
				dep := f.deployment(name)
				st := dep.Status
				var b strings.Builder
				fmt.Fprintf(&b, "generation=%d observed=%d revision=%s replicas=%d updated=%d ready=%d available=%d unavailable=%d\n",
					dep.Generation, st.ObservedGeneration, dep.Annotations[deployutil.RevisionAnnotation],
					st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas, st.UnavailableReplicas)
				for _, c := range st.Conditions {
					fmt.Fprintf(&b, "%s=%s %s %q updated %s\n", c.Type, c.Status, c.Reason, c.Message, c.LastUpdateTime.Sub(f.clock.Start()))
				}
				return b.String()
			case "events":
				evs := f.server.ListEvents("default")
				var b strings.Builder
				for _, e := range evs[seenEvents:] {
					fmt.Fprintf(&b, "%s %s: %s\n", e.Type, e.Reason, e.Message)
				}
				seenEvents = len(evs)
				return b.String()
			default:
				d.Fatalf(t, "unknown command %q", d.Cmd)
			}
			return "ok\n"
		})
	})
}

func argInt(t *testing.T, d *datadriven.TestData, key string) int {
	t.Helper()
	v, ok := d.Arg(key)
	if !ok {
		d.Fatalf(t, "missing %s=", key)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		d.Fatalf(t, "%s: %v", key, err)
	}
	return n
}

// controllerTranscript renders the controller's own records (queue
// operations excepted) and its API requests, one line each.
func controllerTranscript(recs []trace.Record) string {
	var b strings.Builder
	for _, r := range recs {
		switch {
		case r.Source == source && r.Kind() != trace.KindQueue:
		case r.Source == "apiserver" && strings.HasPrefix(r.Data.Text(), source+" "):
		default:
			continue
		}
		b.WriteString(r.Data.Kind().String())
		b.WriteString(": ")
		b.WriteString(r.Data.Text())
		b.WriteByte('\n')
	}
	return b.String()
}
