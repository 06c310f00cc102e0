package events

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

func TestEventsAtOneInstantGetDistinctNames(t *testing.T) {
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	srv := apiserver.New(c, rng.New(1).Stream("api"), rec)
	r := New(srv, c, rec, "replicaset-controller")
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "u1"}}
	gvk := appsv1.SchemeGroupVersion.WithKind("ReplicaSet")
	r.Event(rs, gvk, "Normal", "SuccessfulCreate", "Created pod: web-a")
	r.Event(rs, gvk, "Normal", "SuccessfulCreate", "Created pod: web-b")
	evs := srv.ListEvents("default")
	if len(evs) != 2 || evs[0].Name == evs[1].Name {
		t.Fatalf("events = %d, names %v", len(evs), evs)
	}
	for _, e := range evs {
		if !strings.HasPrefix(e.Name, "web.") || e.InvolvedObject.Kind != "ReplicaSet" || e.InvolvedObject.APIVersion != "apps/v1" ||
			e.Source.Component != "replicaset-controller" || e.InvolvedObject.UID != "u1" {
			t.Fatalf("event %+v", e)
		}
	}
	last := rec.Records()[rec.Len()-1]
	if last.Source != "replicaset-controller" || last.Data.Text() != "Normal SuccessfulCreate ReplicaSet default/web: Created pod: web-b" {
		t.Fatalf("record %s: %q", last.Source, last.Data.Text())
	}
}
