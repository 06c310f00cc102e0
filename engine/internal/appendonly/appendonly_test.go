package appendonly

import "testing"

func TestRestoreCutsAndExtendsWithinTheArray(t *testing.T) {
	live := []int{1, 2, 3, 4, 5}
	back := Restore(live, 2)
	if len(back) != 2 || back[1] != 2 {
		t.Fatalf("rewound to %v", back)
	}
	if again := Restore(back, 4); len(again) != 4 || again[3] != 4 {
		t.Fatalf("forward to %v: the elements past the cut must still be there", again)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("restoring more than the slice ever held did not panic")
		}
	}()
	Restore(back[:2:2], 3)
}
