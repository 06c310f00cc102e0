package clock

import (
	"testing"
	"time"
)

func TestAdvance(t *testing.T) {
	c := New(Epoch)
	c.Advance(1500 * time.Millisecond)
	if got := c.Elapsed(); got != 1500*time.Millisecond {
		t.Fatalf("Elapsed = %v, want 1.5s", got)
	}
	if got := FormatOffset(c.Elapsed()); got != "+1.500s" {
		t.Fatalf("FormatOffset = %q", got)
	}
	if !c.Now().Equal(Epoch.Add(1500 * time.Millisecond)) {
		t.Fatalf("Now = %v", c.Now())
	}
}

func TestBackwardsPanics(t *testing.T) {
	c := New(Epoch)
	c.Advance(time.Second)
	defer func() {
		if recover() == nil {
			t.Fatal("moving the clock backwards did not panic")
		}
	}()
	c.AdvanceTo(Epoch)
}
