package deployutil

import (
	"encoding/json"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestOracleResolveFenceposts(t *testing.T) {
	runOracle(t, "resolve_fenceposts", func(t *testing.T, c oracleCase) {
		var in struct {
			Desired        int32           `json:"desired"`
			MaxSurge       json.RawMessage `json:"maxSurge"`
			MaxUnavailable json.RawMessage `json:"maxUnavailable"`
		}
		var want struct {
			Error       bool  `json:"error"`
			Surge       int32 `json:"surge"`
			Unavailable int32 `json:"unavailable"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		s, u, err := ResolveFenceposts(intOrString(t, in.MaxSurge), intOrString(t, in.MaxUnavailable), in.Desired)
		if (err != nil) != want.Error || s != want.Surge || u != want.Unavailable {
			t.Fatalf("got (%d, %d, %v), want (%d, %d, error=%v)", s, u, err, want.Surge, want.Unavailable, want.Error)
		}
		if err != nil && !errors.Is(err, ErrInvalidIntOrPercent) {
			t.Fatalf("error %v is not ErrInvalidIntOrPercent", err)
		}
	})
}

// fencepostOracle drives the three per-deployment fencepost files.
func fencepostOracle(t *testing.T, file string, fn func(in deploymentIn) int32) {
	runOracle(t, file, func(t *testing.T, c oracleCase) {
		var in deploymentIn
		var want struct {
			Value int32 `json:"value"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		if got := fn(in); got != want.Value {
			t.Fatalf("got %d, want %d", got, want.Value)
		}
	})
}

func TestOracleMaxUnavailable(t *testing.T) {
	fencepostOracle(t, "max_unavailable", func(in deploymentIn) int32 { return MaxUnavailable(in.build(t)) })
}

func TestOracleMaxSurge(t *testing.T) {
	fencepostOracle(t, "max_surge", func(in deploymentIn) int32 { return MaxSurge(in.build(t)) })
}

func TestOracleMinAvailable(t *testing.T) {
	fencepostOracle(t, "min_available", func(in deploymentIn) int32 { return MinAvailable(in.build(t)) })
}

// TestFencepostWorkedExamples checks the examples in the doc comments of
// ResolveFenceposts, MaxUnavailable and MinAvailable.
func TestFencepostWorkedExamples(t *testing.T) {
	pct := func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }
	num := func(n int32) *intstr.IntOrString { v := intstr.FromInt32(n); return &v }
	for _, tc := range []struct {
		name           string
		surge, unavail *intstr.IntOrString
		desired        int32
		wantS, wantU   int32
		wantErr        bool
	}{
		{"10 25%/25%", pct("25%"), pct("25%"), 10, 3, 2, false},
		{"3 25%/25%", pct("25%"), pct("25%"), 3, 1, 0, false},
		{"10 39%/39%", pct("39%"), pct("39%"), 10, 4, 3, false},
		{"10 0/0 fencepost", num(0), num(0), 10, 0, 1, false},
		{"0 25%/25% fencepost", pct("25%"), pct("25%"), 0, 0, 1, false},
		{"10 5/20 no clamp", num(5), num(20), 10, 5, 20, false},
		{"string without percent", pct("5"), num(1), 10, 0, 0, true},
	} {
		s, u, err := ResolveFenceposts(tc.surge, tc.unavail, tc.desired)
		if s != tc.wantS || u != tc.wantU || (err != nil) != tc.wantErr {
			t.Errorf("%s: got (%d, %d, %v)", tc.name, s, u, err)
		}
	}
	d := newDeployment(t, 4, "RollingUpdate", json.RawMessage(`0`), json.RawMessage(`"150%"`))
	if got := MaxUnavailable(d); got != 4 {
		t.Errorf("replicas 4, 150%%: MaxUnavailable %d, want 4", got)
	}
	d = newDeployment(t, 4, "RollingUpdate", json.RawMessage(`"25%"`), json.RawMessage(`"25%"`))
	if got := MinAvailable(d); got != 3 {
		t.Errorf("replicas 4, 25%%/25%%: MinAvailable %d, want 3", got)
	}
}

func TestExplainFencepostsText(t *testing.T) {
	for _, tc := range []struct {
		replicas       int32
		strategy       string
		surge, unavail string
		want           string
	}{
		{10, "RollingUpdate", `"25%"`, `"25%"`,
			"Fenceposts(replicas 10): maxSurge 25% of 10 = 2.5 round up -> 3; maxUnavailable 25% of 10 = 2.5 round down -> 2 => maxSurge 3, maxUnavailable 2"},
		{10, "RollingUpdate", `0`, `0`,
			"Fenceposts(replicas 10): maxSurge 0; maxUnavailable 0; both 0 -> unavailable 1 (fencepost rule) => maxSurge 0, maxUnavailable 1"},
		{4, "RollingUpdate", `null`, `"150%"`,
			"Fenceposts(replicas 4): maxSurge unset -> 0; maxUnavailable 150% of 4 = 6 round down -> 6; unavailable 6 clamped to replicas 4 => maxSurge 0, maxUnavailable 4"},
		{0, "RollingUpdate", `5`, `1`,
			"Fenceposts(replicas 0): maxSurge 5; maxUnavailable 1; replicas 0 -> maxUnavailable 0 => maxSurge 5, maxUnavailable 0"},
		{3, "Recreate", `null`, `null`, "Fenceposts: strategy Recreate -> maxSurge 0, maxUnavailable 0"},
	} {
		m := ExplainFenceposts(newDeployment(t, tc.replicas, tc.strategy, json.RawMessage(tc.surge), json.RawMessage(tc.unavail)))
		if got := m.Text(); got != tc.want {
			t.Errorf("text:\n got %s\nwant %s", got, tc.want)
		}
	}
	m := ExplainFenceposts(newDeployment(t, 10, "RollingUpdate", json.RawMessage(`"25%"`), json.RawMessage(`"x"`)))
	if m.Error == "" || m.MaxSurge != 0 || m.MaxUnavailable != 0 {
		t.Errorf("bad input: %+v", m)
	}
}
