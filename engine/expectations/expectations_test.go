package expectations

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

type oracleOp struct {
	Op      string
	Add     int
	Del     int
	N       int
	Keys    []string
	Key     string
	Seconds int
}

type oracleCase struct {
	Name  string
	Input struct {
		Ops             []oracleOp
		TTLStoreSeconds *int `json:"ttlStoreSeconds"`
		UIDTracking     bool `json:"uidTracking"`
	}
	Expected struct {
		Results []json.RawMessage
	}
}

const rsKey = "default/rs"

// run executes one oracle op and returns its result encoded like the oracle:
// null, a bool for Satisfied, [add, del, exists(, keys)] for Get.
//
// ttl models upstream's test-only TTL store (ttlStoreSeconds): there, an
// entry older than the TTL vanishes from the store and reads as "no record".
// The real Store never evicts; the harness emulates the eviction with
// Delete before each op, which is what that fake store does on read.
func run(t *testing.T, s *Store, c *clock.Clock, op oracleOp, ttl *int, uidTracking bool) any {
	t.Helper()
	if ttl != nil {
		for _, e := range s.Snapshot() {
			if c.Since(e.SetAt) > time.Duration(*ttl)*time.Second {
				s.Delete(e.Key)
			}
		}
	}
	switch op.Op {
	case "SetExpectations":
		s.SetExpectations(rsKey, op.Add, op.Del)
	case "ExpectCreations":
		s.ExpectCreations(rsKey, op.N)
	case "ExpectDeletions":
		s.ExpectDeletions(rsKey, op.N)
	case "ExpectDeletionKeys":
		s.ExpectDeletionKeys(rsKey, op.Keys)
	case "CreationObserved":
		s.CreationObserved(rsKey)
	case "DeletionObserved":
		s.DeletionObserved(rsKey)
	case "DeletionObservedKey":
		s.DeletionObservedKey(rsKey, op.Key)
	case "RaiseExpectations":
		s.Raise(rsKey, op.Add, op.Del)
	case "LowerExpectations":
		s.Lower(rsKey, op.Add, op.Del)
	case "DeleteExpectations":
		s.Delete(rsKey)
	case "AdvanceClock":
		c.Advance(time.Duration(op.Seconds) * time.Second)
	case "Satisfied":
		return s.Satisfied(rsKey)
	case "Get":
		add, del, ok := s.Get(rsKey)
		if uidTracking {
			return []any{add, del, ok, s.PendingDeleteKeys(rsKey)}
		}
		return []any{add, del, ok}
	default:
		t.Fatalf("unknown op %q", op.Op)
	}
	return nil
}

func TestExpectationsOracle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "expectations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []oracleCase }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatal("no cases")
	}
	passed := 0
	for _, tc := range f.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			if len(tc.Expected.Results) != len(tc.Input.Ops) {
				t.Fatalf("%d results for %d ops", len(tc.Expected.Results), len(tc.Input.Ops))
			}
			c := clock.New(clock.Epoch)
			s := NewStore(c)
			for i, op := range tc.Input.Ops {
				got := run(t, s, c, op, tc.Input.TTLStoreSeconds, tc.Input.UIDTracking)
				var want, gotNorm any
				if err := json.Unmarshal(tc.Expected.Results[i], &want); err != nil {
					t.Fatal(err)
				}
				gb, _ := json.Marshal(got)
				_ = json.Unmarshal(gb, &gotNorm)
				if !reflect.DeepEqual(gotNorm, want) {
					t.Fatalf("op %d %+v: got %s, want %s", i, op, gb, tc.Expected.Results[i])
				}
			}
			passed++
		})
	}
	t.Logf("expectations: %d/%d cases pass", passed, len(f.Cases))
}

func TestTimeoutIsStrictAndEntryKept(t *testing.T) {
	c := clock.New(clock.Epoch)
	s := NewStore(c)
	s.ExpectCreations(rsKey, 2)
	c.Advance(Timeout)
	if s.Satisfied(rsKey) {
		t.Fatal("exactly at the timeout is not expired (strictly greater)")
	}
	c.Advance(time.Nanosecond)
	if !s.Satisfied(rsKey) {
		t.Fatal("past the timeout must be satisfied")
	}
	if add, _, ok := s.Get(rsKey); !ok || add != 2 {
		t.Fatal("expired entry must be kept")
	}
	chk := s.Check(rsKey)
	if !chk.Satisfied || chk.Reason != ReasonExpired {
		t.Fatalf("check %+v", chk)
	}
	// The next Set restarts the clock.
	s.ExpectDeletions(rsKey, 1)
	if s.Satisfied(rsKey) {
		t.Fatal("fresh record must be pending")
	}
	// Fulfilled wins over expired.
	s.DeletionObserved(rsKey)
	c.Advance(time.Hour)
	if r := s.Check(rsKey).Reason; r != ReasonFulfilled {
		t.Fatalf("reason %q", r)
	}
}

func TestObservedKeyIgnoresClobberedAndOtherSets(t *testing.T) {
	c := clock.New(clock.Epoch)
	s := NewStore(c)
	s.ExpectDeletionKeys(rsKey, []string{"ns/a", "ns/b"})
	s.ExpectDeletionKeys(rsKey, []string{"ns/c"}) // clobbers a, b
	s.DeletionObservedKey(rsKey, "ns/a")
	if _, del, _ := s.Get(rsKey); del != 1 {
		t.Fatalf("clobbered key must not count: del=%d", del)
	}
	s.DeletionObservedKey("other/rs", "ns/c") // another controller's key
	if _, del, _ := s.Get(rsKey); del != 1 {
		t.Fatalf("del=%d", del)
	}
	// ExpectCreations replaces counts but, as upstream, not the key set.
	s.ExpectCreations(rsKey, 1)
	s.DeletionObservedKey(rsKey, "ns/c")
	if add, del, _ := s.Get(rsKey); add != 1 || del != -1 {
		t.Fatalf("add=%d del=%d", add, del)
	}
	if k := s.PendingDeleteKeys(rsKey); len(k) != 0 {
		t.Fatalf("pending %v", k)
	}
}

func TestSnapshotAndCheckPayload(t *testing.T) {
	c := clock.New(clock.Epoch)
	s := NewStore(c)
	s.ExpectDeletionKeys("ns/web", []string{"ns/web-z", "ns/web-a"})
	s.ExpectCreations("ns/api", 3)
	c.Advance(6 * time.Minute)
	s.SetExpectations("ns/db", 0, 0)
	snap := s.Snapshot()
	want := []Entry{
		{Key: "ns/api", Add: 3, PendingDeleteKeys: []string{}, SetAt: clock.Epoch, Satisfied: true, Expired: true},
		{Key: "ns/db", PendingDeleteKeys: []string{}, SetAt: clock.Epoch.Add(6 * time.Minute), Satisfied: true},
		{Key: "ns/web", Del: 2, PendingDeleteKeys: []string{"ns/web-a", "ns/web-z"}, SetAt: clock.Epoch, Satisfied: true, Expired: true},
	}
	if !reflect.DeepEqual(snap, want) {
		t.Fatalf("snapshot\n%+v\nwant\n%+v", snap, want)
	}
	s.ExpectDeletionKeys("ns/web", []string{"ns/web-z", "ns/web-a"})
	chk := s.Check("ns/web")
	if chk.Kind() != trace.KindDecision {
		t.Fatal("kind")
	}
	if got, w := chk.Text(), "expectations ns/web: pending add=0 del=2 [ns/web-a ns/web-z] -> wait"; got != w {
		t.Fatalf("text %q want %q", got, w)
	}
	if got, w := s.Check("ns/none").Text(), "expectations ns/none: no record add=0 del=0 -> sync"; got != w {
		t.Fatalf("text %q want %q", got, w)
	}
	b, _ := json.Marshal(chk)
	if string(b) != `{"key":"ns/web","satisfied":false,"reason":"pending","add":0,"del":2,"pendingKeys":["ns/web-a","ns/web-z"]}` {
		t.Fatalf("json %s", b)
	}
}
