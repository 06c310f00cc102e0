package events

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/rng"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// The facts below are client-go's correlator defaults (record.NewBroadcaster
// with no options): 10 similar messages, a 600 s window, a spam bucket of 25
// refilled at 1/300 per second, caches of 4096 entries.

type correlatorWorld struct {
	c   *clock.Clock
	rec *trace.Recorder
	srv *apiserver.Server
	r   *Recorder
	rs  *appsv1.ReplicaSet
	gvk schema.GroupVersionKind
}

func newCorrelatorWorld() *correlatorWorld {
	c := clock.New(clock.Epoch)
	rec := trace.NewRecorder(c, 1)
	srv := apiserver.New(c, rng.New(1).Stream("api"), rec)
	return &correlatorWorld{c: c, rec: rec, srv: srv, r: New(srv, c, rec, "replicaset-controller"),
		rs:  &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "u1"}},
		gvk: appsv1.SchemeGroupVersion.WithKind("ReplicaSet")}
}

func (w *correlatorWorld) created(i int) {
	w.r.Event(w.rs, w.gvk, "Normal", "SuccessfulCreate", fmt.Sprintf("Created pod: web-%d", i))
}

// lastRecorded returns the EventRecorded of the last record.
func (w *correlatorWorld) lastRecorded(t *testing.T) EventRecorded {
	t.Helper()
	e, ok := w.rec.Records()[w.rec.Len()-1].Data.(EventRecorded)
	if !ok {
		t.Fatalf("last record is %T", w.rec.Records()[w.rec.Len()-1].Data)
	}
	return e
}

func TestTenthSimilarEventIsCombinedThenCounted(t *testing.T) {
	w := newCorrelatorWorld()
	for i := 1; i <= 12; i++ {
		w.created(i)
		got := w.lastRecorded(t)
		switch {
		case i < 10 && got.Written != "":
			t.Fatalf("event %d: written %q, want created as recorded", i, got.Written)
		case i >= 10 && (got.Written != "combined" || got.Count != int32(i-9)):
			t.Fatalf("event %d: written %q count %d, want combined count %d", i, got.Written, got.Count, i-9)
		}
	}
	evs := w.srv.ListEvents("default")
	if len(evs) != 10 {
		t.Fatalf("%d events stored, want 9 and one combined", len(evs))
	}
	for i, e := range evs[:9] {
		if e.Message != fmt.Sprintf("Created pod: web-%d", i+1) || e.Count != 1 || e.ReportingController != "replicaset-controller" {
			t.Fatalf("event %d: %q count %d reporting %q", i, e.Message, e.Count, e.ReportingController)
		}
	}
	combined := evs[9]
	if combined.Message != "(combined from similar events): Created pod: web-12" || combined.Count != 3 ||
		combined.Reason != "SuccessfulCreate" || combined.InvolvedObject.UID != "u1" || combined.Source.Component != "replicaset-controller" {
		t.Fatalf("combined event %+v", combined)
	}
	// client-go's combined copy leaves the reporting controller unset.
	if combined.ReportingController != "" {
		t.Fatalf("combined event reports %q", combined.ReportingController)
	}
	if w.lastRecorded(t).Into != combined.Name {
		t.Fatalf("records name %q, stored %q", w.lastRecorded(t).Into, combined.Name)
	}
	// Another reason is another group: its first Event is created as is.
	w.r.Event(w.rs, w.gvk, "Normal", "SuccessfulDelete", "Deleted pod: web-1")
	if got := w.lastRecorded(t); got.Written != "" {
		t.Fatalf("first delete event written %q", got.Written)
	}
}

func TestRepeatedEventIsCounted(t *testing.T) {
	w := newCorrelatorWorld()
	w.r.Event(w.rs, w.gvk, "Warning", "FailedCreate", "Error creating: quota")
	w.c.Advance(5 * time.Second)
	w.r.Event(w.rs, w.gvk, "Warning", "FailedCreate", "Error creating: quota")
	evs := w.srv.ListEvents("default")
	if len(evs) != 1 {
		t.Fatalf("%d events stored, want 1", len(evs))
	}
	e := evs[0]
	if e.Count != 2 || !e.FirstTimestamp.Time.Equal(clock.Epoch) || !e.LastTimestamp.Time.Equal(clock.Epoch.Add(5*time.Second)) || e.ResourceVersion != "2" {
		t.Fatalf("counted event: count %d first %v last %v rv %s", e.Count, e.FirstTimestamp, e.LastTimestamp, e.ResourceVersion)
	}
	if got := w.lastRecorded(t); got.Written != "counted" || got.Count != 2 || got.Into != e.Name {
		t.Fatalf("record %+v", got)
	}
	if txt := w.lastRecorded(t).Text(); txt != "Warning FailedCreate ReplicaSet default/web: Error creating: quota (repeated: "+e.Name+" count 2)" {
		t.Fatalf("text %q", txt)
	}
}

func TestSimilarEventsAfterTheWindowStartAgain(t *testing.T) {
	for _, tc := range []struct {
		gap      time.Duration
		combined bool
	}{{600 * time.Second, true}, {601 * time.Second, false}} {
		w := newCorrelatorWorld()
		for i := 1; i <= 9; i++ {
			w.created(i)
		}
		w.c.Advance(tc.gap)
		w.created(10)
		if got := w.lastRecorded(t).Written == "combined"; got != tc.combined {
			t.Fatalf("10th similar event %v after the 9th: combined %v, want %v", tc.gap, got, tc.combined)
		}
	}
}

func TestSpamFilterAllows25ThenOneEvery300s(t *testing.T) {
	w := newCorrelatorWorld()
	// Distinct reasons, so that no Event is combined: creates all.
	event := func(i int) EventRecorded {
		w.r.Event(w.rs, w.gvk, "Normal", fmt.Sprintf("Reason%d", i), "m")
		return w.lastRecorded(t)
	}
	for i := 1; i <= 25; i++ {
		if got := event(i); got.Written != "" {
			t.Fatalf("event %d: %q", i, got.Written)
		}
	}
	if got := event(26); got.Written != "spam-filtered" {
		t.Fatalf("26th event: %q", got.Written)
	}
	// Another object has a bucket of its own.
	other := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "api", UID: "u2"}}
	w.r.Event(other, w.gvk, "Normal", "SuccessfulCreate", "m")
	if got := w.lastRecorded(t); got.Written != "" {
		t.Fatalf("another object's first event: %q", got.Written)
	}
	// The bucket is empty after the 25th. A token takes 1/r s to come
	// back, r being 1/300 through a float32 (0.0033333334): 299.9999927 s.
	// rate.Limiter allows an Event as soon as the wait for the missing
	// fraction of a token truncates to 0 ns, which is 1 ns earlier:
	// 299,999,992,735 ns after the 25th. (With a float64 1/300, or
	// without the truncation, it would not be allowed then.) A dropped
	// Event leaves the bucket as it was.
	w.c.Advance(299_999_992_734 * time.Nanosecond)
	if got := event(27); got.Written != "spam-filtered" {
		t.Fatalf("event 299,999,992,734 ns later: %q", got.Written)
	}
	w.c.Advance(time.Nanosecond)
	if got := event(28); got.Written != "" {
		t.Fatalf("event 299,999,992,735 ns later: %q", got.Written)
	}
	if got := event(29); got.Written != "spam-filtered" {
		t.Fatalf("a second event then: %q", got.Written)
	}
	if n := len(w.srv.ListEvents("default")); n != 27 {
		t.Fatalf("%d events stored, want 25 + 1 + 1", n)
	}
}

// TestRecorderCheckpointRestoresTheCorrelator checkpoints with 9 similar
// messages remembered. The 10th is combined and pushes message 1 out of the
// group; after a restore, message 1 is remembered again, so its repeat is
// counted under its own key instead of combined. A restore that shares the
// group's messages with the run it replaced gets that wrong.
func TestRecorderCheckpointRestoresTheCorrelator(t *testing.T) {
	w := newCorrelatorWorld()
	for i := 1; i <= 9; i++ {
		w.created(i)
	}
	cp := w.r.Checkpoint()
	srvCP := w.srv.Checkpoint()
	var first []string
	w.created(10)
	first = append(first, w.lastRecorded(t).Text())
	w.created(11)
	first = append(first, w.lastRecorded(t).Text())
	if !strings.Contains(first[0], "similar events combined") || !strings.Contains(first[1], "count 2") {
		t.Fatalf("before the restore: %q", first)
	}
	for round := range 2 {
		w.r.Restore(cp)
		w.srv.Restore(srvCP)
		w.created(1)
		if got := w.lastRecorded(t); got.Written != "counted" || got.Count != 2 {
			t.Fatalf("round %d: message 1 again after the restore: %+v", round, got)
		}
		w.r.Restore(cp)
		w.srv.Restore(srvCP)
		var again []string
		for i := 10; i <= 11; i++ {
			w.created(i)
			again = append(again, w.lastRecorded(t).Text())
		}
		// The records, names included, are what a replay must repeat.
		if !slices.Equal(first, again) {
			t.Fatalf("round %d after restore:\n%q\nwant\n%q", round, again, first)
		}
	}
}

// keys returns the cache's keys, most recent first.
func (c *lru) keys() []string {
	var out []string
	for i := c.head; i >= 0; i = c.nodes[i].next {
		out = append(out, c.nodes[i].key)
	}
	return out
}

func TestLRUDropsTheLeastRecentlyUsed(t *testing.T) {
	c := newCache[int](3)
	set := func(k string, v int) {
		p, _ := c.upsert(k)
		*p = v
	}
	set("a", 1)
	set("b", 2)
	set("c", 3)
	if _, found := c.upsert("a"); !found { // a is now the most recent
		t.Fatal("a missing")
	}
	saved := c.clone(nil)
	set("d", 4) // drops b, and takes its slot
	if got := c.keys.keys(); !slices.Equal(got, []string{"d", "a", "c"}) {
		t.Fatalf("keys %v", got)
	}
	set("c", 30)                                     // replaces and refreshes c
	if v, found := c.upsert("e"); found || *v != 0 { // drops a; starts from zero in a's slot
		t.Fatalf("e inserted: %d %v", *v, found)
	}
	if got := c.keys.keys(); !slices.Equal(got, []string{"e", "c", "d"}) {
		t.Fatalf("keys %v", got)
	}
	if v, _ := c.upsert("c"); *v != 30 {
		t.Fatalf("c = %d", *v)
	}
	if got := saved.keys.keys(); !slices.Equal(got, []string{"a", "c", "b"}) || len(c.keys.index) != 3 {
		t.Fatalf("saved keys %v", got)
	}
	if v, _ := saved.upsert("b"); *v != 2 {
		t.Fatalf("saved b = %d", *v)
	}
}

func TestKeysFollowClientGo(t *testing.T) {
	e := &corev1.Event{
		InvolvedObject: corev1.ObjectReference{Kind: "ReplicaSet", Namespace: "ns", Name: "web", UID: "u", APIVersion: "apps/v1", FieldPath: "f"},
		Type:           "Normal", Reason: "R", Message: "M", Source: corev1.EventSource{Component: "rc", Host: "h"},
		ReportingController: "rc", ReportingInstance: "i",
	}
	if got := eventKey(e); got != "rchReplicaSetnswebfuapps/v1NormalRM" {
		t.Fatalf("event key %q", got)
	}
	if got := similarKey(e); got != "rchReplicaSetnswebuapps/v1NormalRrci" {
		t.Fatalf("similar key %q", got)
	}
	if got := similarKey(e)[:spamKeyLen(e)]; got != "rchReplicaSetnswebuapps/v1" {
		t.Fatalf("spam key %q", got)
	}
}

// TestSimilarKeyMemoSeesEveryField: the correlator reuses the last
// similar-Events key only for an Event that agrees on every field the key
// is made of.
func TestSimilarKeyMemoSeesEveryField(t *testing.T) {
	base := corev1.Event{
		InvolvedObject: corev1.ObjectReference{Kind: "ReplicaSet", Namespace: "ns", Name: "web", UID: "u", APIVersion: "apps/v1"},
		Type:           "Normal", Reason: "R", Message: "M", Source: corev1.EventSource{Component: "rc", Host: "h"},
		ReportingController: "rc", ReportingInstance: "i",
	}
	for name, change := range map[string]func(e *corev1.Event){
		"component": func(e *corev1.Event) { e.Source.Component = "x" },
		"host":      func(e *corev1.Event) { e.Source.Host = "x" },
		"kind":      func(e *corev1.Event) { e.InvolvedObject.Kind = "x" },
		"namespace": func(e *corev1.Event) { e.InvolvedObject.Namespace = "x" },
		"name":      func(e *corev1.Event) { e.InvolvedObject.Name = "x" },
		"uid":       func(e *corev1.Event) { e.InvolvedObject.UID = "x" },
		"version":   func(e *corev1.Event) { e.InvolvedObject.APIVersion = "x" },
		"type":      func(e *corev1.Event) { e.Type = "x" },
		"reason":    func(e *corev1.Event) { e.Reason = "x" },
		"reporter":  func(e *corev1.Event) { e.ReportingController = "x" },
		"instance":  func(e *corev1.Event) { e.ReportingInstance = "x" },
	} {
		c := newCorrelator()
		first := c.similarKeyOf(&base)
		other := base
		change(&other)
		if got := c.similarKeyOf(&other); got == first || got != similarKey(&other) {
			t.Errorf("%s changed: key %q, want %q", name, got, similarKey(&other))
		}
	}
	c := newCorrelator()
	first := c.similarKeyOf(&base)
	again := base
	again.Message, again.InvolvedObject.ResourceVersion = "another", "7"
	if got := c.similarKeyOf(&again); got != first {
		t.Errorf("message changed: key %q, want %q", got, first)
	}
}

// BenchmarkEventsAboutOneReplicaSet records the 20,000 Events of a
// 10,000-replica rollout's pod creates and deletes about one ReplicaSet at
// one instant: 9 created, then combined, and dropped by the spam filter
// after 25 writes. Per op: the 20,000 Events, from a new recorder.
func BenchmarkEventsAboutOneReplicaSet(b *testing.B) {
	msgs := make([]string, 20000)
	for i := range msgs {
		msgs[i] = fmt.Sprintf("Created pod: web-abcdef1234-%05d", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		w := newCorrelatorWorld()
		for _, m := range msgs {
			w.r.Event(w.rs, w.gvk, "Normal", "SuccessfulCreate", m)
		}
	}
}
