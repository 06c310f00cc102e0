package podutil

import (
	"errors"
	"slices"
	"testing"
)

func TestSlowStartBatchOracle(t *testing.T) {
	type in struct {
		CallLimit        int `json:"callLimit"`
		Count            int
		InitialBatchSize int `json:"initialBatchSize"`
	}
	type want struct {
		BatchSizes []int `json:"batchSizes"`
		Calls      int
		Error      bool
		Successes  int
	}
	f := loadOracle[in, want](t, "slow_start_batch.json")
	passed := 0
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			calls := 0
			var seen []int
			successes, batches, err := SlowStartBatch(c.Input.Count, c.Input.InitialBatchSize, func(i int) error {
				seen = append(seen, i)
				calls++
				if calls > c.Input.CallLimit {
					return errors.New("fake error")
				}
				return nil
			})
			if successes != c.Expected.Successes || calls != c.Expected.Calls || (err != nil) != c.Expected.Error ||
				!slices.Equal(batches, c.Expected.BatchSizes) {
				t.Fatalf("got successes=%d calls=%d err=%v batches=%v; want %+v", successes, calls, err, batches, c.Expected)
			}
			for k, i := range seen {
				if i != k {
					t.Fatalf("call %d got index %d", k, i)
				}
			}
			passed++
		})
	}
	t.Logf("slow_start_batch: %d/%d cases pass", passed, len(f.Cases))
}

// TestSlowStartBatchDocExample checks the example in SlowStartBatch's doc.
func TestSlowStartBatchDocExample(t *testing.T) {
	_, batches, err := SlowStartBatch(10, 1, func(int) error { return nil })
	if err != nil || !slices.Equal(batches, []int{1, 2, 4, 3}) {
		t.Fatalf("batches %v err %v", batches, err)
	}
	errA, errB := errors.New("a"), errors.New("b")
	succ, batches, err := SlowStartBatch(10, 1, func(i int) error {
		switch i {
		case 5:
			return errA
		case 6:
			return errB
		}
		return nil
	})
	if succ != 5 || !slices.Equal(batches, []int{1, 2, 4}) || err != errA {
		t.Fatalf("succ %d batches %v err %v", succ, batches, err)
	}
}
