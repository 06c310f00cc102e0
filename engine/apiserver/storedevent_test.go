package apiserver

import (
	"reflect"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fieldNames lists the exported fields of struct type t.
func fieldNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		out = append(out, t.Field(i).Name)
	}
	return out
}

// TestStoredEventCoversEveryEventField fails when corev1.Event, its
// ObjectMeta or EventSource gain a field: storedEvent keeps some fields and
// compactable checks that the others are unset, so each new field must be
// added to one or the other.
func TestStoredEventCoversEveryEventField(t *testing.T) {
	want := map[reflect.Type][]string{
		reflect.TypeOf(corev1.Event{}): {"TypeMeta", "ObjectMeta", "InvolvedObject", "Reason", "Message", "Source",
			"FirstTimestamp", "LastTimestamp", "Count", "Type", "EventTime", "Series", "Action", "Related",
			"ReportingController", "ReportingInstance"},
		reflect.TypeOf(metav1.ObjectMeta{}): {"Name", "GenerateName", "Namespace", "SelfLink", "UID", "ResourceVersion",
			"Generation", "CreationTimestamp", "DeletionTimestamp", "DeletionGracePeriodSeconds", "Labels",
			"Annotations", "OwnerReferences", "Finalizers", "ManagedFields"},
		reflect.TypeOf(corev1.EventSource{}): {"Component", "Host"},
	}
	for typ, fields := range want {
		if got := fieldNames(typ); !slices.Equal(got, fields) {
			t.Errorf("%v has fields %v; storedEvent and compactable know %v", typ, got, fields)
		}
	}
}

func TestStoredEventReadsBackEqual(t *testing.T) {
	at := metav1.NewTime(time.Date(2024, 1, 1, 0, 0, 5, 0, time.UTC))
	common := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: "web.17", Namespace: "default", UID: "u1", ResourceVersion: "9", CreationTimestamp: at},
		InvolvedObject: corev1.ObjectReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default",
			Name: "web", UID: "u0", ResourceVersion: "8"},
		Reason: "SuccessfulCreate", Message: "Created pod: web-x", Type: corev1.EventTypeNormal,
		Source: corev1.EventSource{Component: "replicaset-controller"}, ReportingController: "replicaset-controller",
		FirstTimestamp: at, LastTimestamp: at, Count: 1,
	}
	other := common.DeepCopy()
	other.Labels = map[string]string{"a": "b"}
	other.Series = &corev1.EventSeries{Count: 2}
	other.ReportingInstance = "i-1"
	for _, e := range []*corev1.Event{common, other} {
		se := storeEvent(e)
		if got := se.event(); !reflect.DeepEqual(got, e) {
			t.Errorf("read back %+v\nwant %+v", got, e)
		}
		if (se.full != nil) == compactable(e) {
			t.Errorf("%s: kept whole = %v, compactable = %v", e.Name, se.full != nil, compactable(e))
		}
		if se.namespaceOf() != e.Namespace {
			t.Errorf("namespaceOf = %q", se.namespaceOf())
		}
	}
	if storeEvent(other).full == other {
		t.Error("an Event kept whole must be a copy")
	}
}
