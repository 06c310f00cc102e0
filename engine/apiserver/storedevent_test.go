package apiserver

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	later := metav1.NewTime(at.Add(time.Second))
	uid := [2]uint64{0x0123456789ab4def, 0x8123456789abcdef}
	common := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: "web.17", Namespace: "default", UID: formatUID(uid[0], uid[1]), ResourceVersion: "9", CreationTimestamp: at},
		InvolvedObject: corev1.ObjectReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default",
			Name: "web", UID: "u0", ResourceVersion: "8"},
		Reason: "SuccessfulCreate", Message: "Created pod: web-x", Type: corev1.EventTypeNormal,
		Source: corev1.EventSource{Component: "replicaset-controller"}, ReportingController: "replicaset-controller",
		FirstTimestamp: at, LastTimestamp: at, Count: 1,
	}
	next := common.DeepCopy()
	next.Name, next.InvolvedObject.ResourceVersion, next.LastTimestamp = "web.18", "10", later
	elsewhere := common.DeepCopy()
	elsewhere.InvolvedObject.Name = "api"
	other := common.DeepCopy()
	other.Labels = map[string]string{"a": "b"}
	other.Series = &corev1.EventSeries{Count: 2}
	other.ReportingInstance = "i-1"

	var prev *storedEvent
	var stored []storedEvent
	for _, e := range []*corev1.Event{common, next, elsewhere, other} {
		se := storeEvent(e, uid, 9, prev)
		if got := se.event(); !reflect.DeepEqual(got, e) {
			t.Errorf("%s: read back %+v\nwant %+v", e.Name, got, e)
		}
		if (se.full != nil) == compactable(e) {
			t.Errorf("%s: kept whole = %v, compactable = %v", e.Name, se.full != nil, compactable(e))
		}
		if se.key().ns != e.Namespace {
			t.Errorf("namespaceOf = %q", se.key().ns)
		}
		stored = append(stored, se)
		prev = &stored[len(stored)-1]
	}
	if stored[1].involved != stored[0].involved {
		t.Error("an event about the same object must share the involved object")
	}
	if stored[2].involved == stored[1].involved {
		t.Error("an event about another object must not share the involved object")
	}
	// Events alternating between two objects (a rollout's two ReplicaSets)
	// share with the latest recent event about the same object, and then
	// store nothing new for it.
	again := common.DeepCopy()
	again.Name = "web.19"
	if se := storeEvent(again, uid, 9, &stored[2], &stored[1]); se.involved != stored[1].involved {
		t.Error("an event about the object of an earlier recent event must share its involved object")
	}
	if n := testing.AllocsPerRun(10, func() { storeEvent(again, uid, 9, nil, &stored[2], &stored[1]) }); n != 0 {
		t.Errorf("storing an event whose involved object is shared allocated %v times", n)
	}
	if stored[0].times != nil || stored[1].times == nil {
		t.Error("first and last timestamps must be kept exactly when they differ from the creation time")
	}
	if se := storeEvent(other, uid, 9, nil); se.full == other {
		t.Error("an Event kept whole must be a copy")
	}
}

// TestPatchEventCountsAndRestores: a patch sets count, lastTimestamp and
// message (and a new resourceVersion) of a compact Event and of one kept
// whole, leaves every other field, and answers NotFound for a name not
// stored. Checkpoints keep the versions of their moment: one taken between
// two patches restores the first patch's, one taken before them the
// version first stored, each as often as it is restored.
func TestPatchEventCountsAndRestores(t *testing.T) {
	env := newTestEnv()
	s, c := env.srv, env.clock
	base := corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "web.1", Namespace: "default"},
		InvolvedObject: corev1.ObjectReference{Kind: "ReplicaSet", Namespace: "default", Name: "web", UID: "u0"},
		Reason:         "SuccessfulCreate", Message: "m1", Type: corev1.EventTypeNormal,
		Source:         corev1.EventSource{Component: "replicaset-controller"},
		FirstTimestamp: metav1.NewTime(c.Now()), LastTimestamp: metav1.NewTime(c.Now()), Count: 1,
	}
	whole := base
	whole.Name, whole.ReportingInstance = "web.2", "i-1" // not compactable
	for _, e := range []corev1.Event{base, whole} {
		if err := s.PostEvent("test", &e); err != nil {
			t.Fatal(err)
		}
	}
	patchBoth := func(count int32, message string) metav1.Time {
		c.Advance(7 * time.Second)
		at := metav1.NewTime(c.Now())
		for _, name := range []string{"web.1", "web.2"} {
			if err := s.PatchEvent("test", "", name, count, at, message); err != nil {
				t.Fatal(err)
			}
		}
		return at
	}
	// expect checks both events' count and message, and their get.
	expect := func(when string, count int32, message string) {
		t.Helper()
		for _, e := range s.ListEvents("default") {
			if e.Count != count || e.Message != message {
				t.Errorf("%s: %s count %d message %q, want %d %q", when, e.Name, e.Count, e.Message, count, message)
			}
		}
		if got, ok := s.find(Events, "default", "web.1"); !ok || got.(*corev1.Event).Count != count {
			t.Errorf("%s: get web.1: %v %v", when, got, ok)
		}
	}
	before := s.Checkpoint()
	later := patchBoth(2, "m2")
	evs := s.ListEvents("default")
	for i, e := range evs {
		if !e.LastTimestamp.Equal(&later) || !e.FirstTimestamp.Equal(&base.FirstTimestamp) ||
			e.ResourceVersion != formatRV(uint64(3+i)) || e.Reason != "SuccessfulCreate" || e.InvolvedObject.UID != "u0" {
			t.Errorf("patched %s: first %v last %v rv %s", e.Name, e.FirstTimestamp, e.LastTimestamp, e.ResourceVersion)
		}
	}
	if evs[1].ReportingInstance != "i-1" {
		t.Errorf("the patch lost a field of an event kept whole: %+v", evs[1])
	}
	expect("after a patch", 2, "m2")
	between := s.Checkpoint()
	patchBoth(3, "m3")
	expect("after a second patch", 3, "m3")
	if err := s.PatchEvent("test", "default", "web.9", 2, later, "m"); !apierrors.IsNotFound(err) {
		t.Errorf("patch of an event not stored: %v", err)
	}
	for round := range 2 {
		s.Restore(between)
		expect(fmt.Sprintf("round %d, restored between the patches", round), 2, "m2")
		patchBoth(4, "m4")
		expect(fmt.Sprintf("round %d, patched after the restore", round), 4, "m4")
		s.Restore(before)
		expect(fmt.Sprintf("round %d, restored before the patches", round), 1, "m1")
	}
}
