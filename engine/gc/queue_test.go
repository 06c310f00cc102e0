package gc

import (
	"strconv"

	"k8s.io/apimachinery/pkg/types"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
)

func TestWorkQueueDedupeAndOrder(t *testing.T) {
	q := newWorkQueue()
	a, b := item{attemptToDelete, "a"}, item{attemptToOrphan, "a"}
	if !q.add(a) || q.add(a) || !q.add(b) {
		t.Fatal("an item was queued twice, or distinct queues collided")
	}
	if it, _ := q.pop(); it != a {
		t.Fatalf("pop = %v, want FIFO order", it)
	}
	if !q.add(a) {
		t.Fatal("a popped item must be addable again")
	}
	if it, _ := q.pop(); it != b {
		t.Fatalf("pop = %v", it)
	}
}

func TestWorkQueueDelayed(t *testing.T) {
	q := newWorkQueue()
	now := clock.Epoch
	q.addAt(item{attemptToDelete, "late"}, now.Add(2*time.Second))
	q.addAt(item{attemptToDelete, "early"}, now.Add(time.Second))
	if q.ready(now) {
		t.Fatal("nothing is due yet")
	}
	if due, ok := q.nextDue(); !ok || !due.Equal(now.Add(time.Second)) {
		t.Fatalf("nextDue = %v %v", due, ok)
	}
	q.promote(now.Add(time.Second))
	if it, ok := q.pop(); !ok || it.uid != "early" {
		t.Fatalf("pop = %v %v", it, ok)
	}
	if _, ok := q.pop(); ok {
		t.Fatal("late item promoted too early")
	}
	q.promote(now.Add(2 * time.Second))
	if it, _ := q.pop(); it.uid != "late" {
		t.Fatalf("pop = %v", it)
	}
}

func TestAbsentCacheEvictsOldest(t *testing.T) {
	c := newAbsentCache()
	for i := 0; i < absentCacheSize+1; i++ {
		c.add(absentKey{uid: uidN(i)})
	}
	if c.has(absentKey{uid: uidN(0)}) || !c.has(absentKey{uid: uidN(absentCacheSize)}) {
		t.Fatal("oldest entry not evicted")
	}
}

func uidN(i int) types.UID { return types.UID(strconv.Itoa(i)) }
