package expectations

import (
	"errors"
	"testing"
)

func TestCompareRVExamples(t *testing.T) {
	cases := []struct {
		a, b string
		cmp  int
		ok   bool
	}{
		{"9", "10", -1, true}, {"120", "119", 1, true}, {"42", "42", 0, true},
		{"", "1", 0, false}, {"007", "8", 0, false}, {"1", "x", 0, false}, {"0", "1", 0, false},
	}
	for _, c := range cases {
		cmp, ok := CompareRV(c.a, c.b)
		if cmp != c.cmp || ok != c.ok {
			t.Errorf("CompareRV(%q, %q) = %d, %v; want %d, %v", c.a, c.b, cmp, ok, c.cmp, c.ok)
		}
	}
}

func reads(pods, rss string) func(Resource) string {
	return func(r Resource) string {
		if r == ResourcePods {
			return pods
		}
		return rss
	}
}

func TestEnsureReady(t *testing.T) {
	s := NewConsistencyStore()
	if err := s.EnsureReady("ns/rs", reads("", "")); err != nil {
		t.Fatalf("no record: %v", err)
	}
	s.RecordWrite("ns/rs", "u1", ResourcePods, "100")
	s.RecordWrite("ns/rs", "u1", ResourcePods, "99") // lower: ignored
	s.RecordWrite("ns/rs", "u1", ResourceReplicaSets, "105")
	s.RecordWrite("ns/rs", "u1", ResourcePods, "bogus") // malformed: ignored

	err := s.EnsureReady("ns/rs", reads("99", "200"))
	if err == nil || err.Error() != "read version: 99 is not as new as written version: 100 for group resource pods" {
		t.Fatalf("pods stale: %v", err)
	}
	if !errors.Is(err, ErrStale) {
		t.Fatal("errors.Is ErrStale")
	}
	var se *StaleError
	if !errors.As(err, &se) || se.Resource != ResourcePods {
		t.Fatalf("As: %+v", se)
	}
	// The longer RV is larger: "99" < "100"; replicasets are behind.
	err = s.EnsureReady("ns/rs", reads("1000", "104"))
	if err == nil || err.Error() != "read version: 104 is not as new as written version: 105 for group resource replicasets.apps" {
		t.Fatalf("rs stale: %v", err)
	}
	// Empty or malformed read RVs are skipped; the record still exists.
	if len(s.Snapshot()) != 1 {
		t.Fatal("a failing check must keep the record")
	}
	if err := s.EnsureReady("ns/rs", reads("", "junk")); err != nil {
		t.Fatalf("unreadable RVs are skipped: %v", err)
	}
	if len(s.Snapshot()) != 0 {
		t.Fatal("a passing check clears the record")
	}
	// Passing on equal RVs also clears.
	s.RecordWrite("ns/rs", "u1", ResourcePods, "7")
	if err := s.EnsureReady("ns/rs", reads("7", "")); err != nil || len(s.Snapshot()) != 0 {
		t.Fatalf("equal RV: %v %v", err, s.Snapshot())
	}
}

func TestRecordWriteNewUIDReplaces(t *testing.T) {
	s := NewConsistencyStore()
	s.RecordWrite("ns/rs", "old", ResourcePods, "500")
	s.RecordWrite("ns/rs", "new", ResourceReplicaSets, "20")
	snap := s.Snapshot()
	if len(snap) != 1 || snap[0].UID != "new" || snap[0].PodsRV != "" || snap[0].ReplicaSetsRV != "20" {
		t.Fatalf("snapshot %+v", snap)
	}
	// Even a malformed write under a new UID drops the old record.
	s.RecordWrite("ns/rs", "newer", ResourcePods, "")
	if err := s.EnsureReady("ns/rs", reads("1", "1")); err != nil {
		t.Fatalf("replaced record has nothing to wait for: %v", err)
	}
}

func TestClear(t *testing.T) {
	s := NewConsistencyStore()
	s.RecordWrite("ns/b", "u2", ResourcePods, "3")
	s.RecordWrite("ns/a", "u1", ResourcePods, "5")
	if snap := s.Snapshot(); len(snap) != 2 || snap[0].Owner != "ns/a" || snap[1].Owner != "ns/b" {
		t.Fatalf("sorted snapshot %+v", snap)
	}
	s.Clear("ns/a", "other")
	if len(s.Snapshot()) != 2 {
		t.Fatal("Clear with another UID must keep the record")
	}
	s.Clear("ns/a", "u1")
	s.ClearAny("ns/b")
	if len(s.Snapshot()) != 0 {
		t.Fatal("cleared")
	}
}

func TestResourceString(t *testing.T) {
	if ResourcePods.String() != "pods" || ResourceReplicaSets.String() != "replicasets.apps" || Resource(9).String() != "unknown" {
		t.Fatal("names")
	}
}
