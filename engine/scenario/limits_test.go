package scenario

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestFileTooLarge(t *testing.T) {
	data := []byte("# " + strings.Repeat("x", MaxFileBytes))
	_, err := Parse("big.yaml", data)
	want := "big.yaml: file is 1048578 bytes; the limit is 1 MiB (1048576 bytes)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestTooManyDocuments(t *testing.T) {
	doc := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n---\n"
	_, err := Parse("many.yaml", []byte(strings.Repeat(doc, MaxDocuments)))
	if err != nil {
		t.Fatalf("%d documents should parse: %v", MaxDocuments, err)
	}
	_, err = Parse("many.yaml", []byte(strings.Repeat(doc, MaxDocuments+1)))
	want := "many.yaml: document 501, line 2001: too many documents: the limit is 500"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestTooManyErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n")
	for i := 0; i < 30; i++ {
		b.WriteString("  bad" + strings.Repeat("x", i) + ": 1\n")
	}
	_, err := Parse("e.yaml", []byte(b.String()))
	list := Errors(err)
	if len(list) != MaxErrors+1 {
		t.Fatalf("got %d errors, want %d", len(list), MaxErrors+1)
	}
	if last := list[MaxErrors].Error(); last != "e.yaml: too many errors; only the first 20 are shown" {
		t.Fatalf("last error %q", last)
	}
}

// An alias bomb (each level doubling the one below) must fail fast instead
// of expanding 2^30 nodes: the typed walk stops at the first value of the
// wrong shape and never renders JSON for an invalid document.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n    a0: &a0 [x, x]\n")
	for i := 1; i <= 30; i++ {
		b.WriteString("    a" + itoa(i) + ": &a" + itoa(i) + " [*a" + itoa(i-1) + ", *a" + itoa(i-1) + "]\n")
	}
	_, err := Parse("bomb.yaml", []byte(b.String()))
	if err == nil {
		t.Fatal("alias bomb parsed")
	}
	checkErrorShape(t, err)
	if !strings.Contains(err.Error(), "metadata.annotations.a1: expected a string, got a list") {
		t.Fatalf("alias bomb error: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestErrorFormatting(t *testing.T) {
	e := &Error{File: "web.yaml", Doc: 2, Line: 14, Field: "spec.strategy.rollingUpdate.maxSurge", Message: `invalid value "3x": must be an integer or a percentage like "25%"`}
	want := `web.yaml: document 2, line 14: spec.strategy.rollingUpdate.maxSurge: invalid value "3x": must be an integer or a percentage like "25%"`
	if e.Error() != want {
		t.Fatalf("got %s", e.Error())
	}
	if got := (&Error{Message: "m"}).Error(); got != "m" {
		t.Fatalf("bare error renders %q", got)
	}
	if !errors.Is(e, ErrInvalid) || !errors.Is(ErrorList{e, e}, ErrInvalid) {
		t.Fatal("errors do not match ErrInvalid")
	}
	if Errors(errors.New("x")) != nil || len(Errors(ErrorList{e, e})) != 2 || len(Errors(e)) != 1 {
		t.Fatal("Errors")
	}
}

// Examples from suggest's doc comment.
func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		in   string
		cand []string
		want string
	}{
		{"replica", []string{"replicas", "selector"}, "replicas"},
		{"colour", []string{"name", "labels"}, ""},
		{"crashloop", []string{"crashLoop", "crashAfter"}, "crashLoop"},
		{"at", []string{"after", "when"}, ""},
		{"atx", []string{"at", "ab"}, "at"},
	} {
		if got := suggest(c.in, c.cand); got != c.want {
			t.Errorf("suggest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEnumStrings(t *testing.T) {
	for i, name := range actionTypeNames() {
		if got := ActionType(i + 1).String(); got != name {
			t.Errorf("ActionType(%d) = %s, want %s", i+1, got, name)
		}
	}
	if ActionType(0).String() != "unknown" || Kind(9).String() != "unknown" || TriggerType(9).String() != "unknown" || ConditionType(9).String() != "unknown" {
		t.Error("out-of-range enums must render unknown")
	}
	want := map[string]Kind{"deploy": KindDeployment, "deployment": KindDeployment, "deployments": KindDeployment,
		"rs": KindReplicaSet, "replicaset": KindReplicaSet, "replicasets": KindReplicaSet,
		"po": KindPod, "pod": KindPod, "pods": KindPod}
	if len(kindAliases) != len(want) {
		t.Errorf("%d aliases, want %d", len(kindAliases), len(want))
	}
	for alias, k := range want {
		if kindAliases[alias] != k {
			t.Errorf("alias %s -> %s, want %s", alias, kindAliases[alias], k)
		}
	}
}

// absurd asks for 100,000 replicas with raised limits: natively it used to
// run for 37 s and take 3.2 GB before failing.
const absurd = `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: absurd}
spec:
  limits: {maxPods: 100000, maxSteps: 10000000, maxTraceRecords: 100000000}
  timeline:
  - {at: 10s, action: scale, target: deployment/web, replicas: 25000}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 100000
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.25}]
`

func TestCheckLimitsNamesEachLimitItsValueTheCeilingAndTheLine(t *testing.T) {
	s, err := Parse("absurd.yaml", []byte(absurd))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"absurd.yaml: document 1, line 5: spec.limits.maxPods: 100000 is more than the browser allows: at most 20000 pods at once (lower spec.limits.maxPods in the Scenario document)",
		"absurd.yaml: document 1, line 5: spec.limits.maxSteps: 10000000 is more than the browser allows: at most 500000 steps (lower spec.limits.maxSteps in the Scenario document)",
		"absurd.yaml: document 1, line 5: spec.limits.maxTraceRecords: 100000000 is more than the browser allows: at most 2000000 trace records (lower spec.limits.maxTraceRecords in the Scenario document)",
		"absurd.yaml: document 2, line 13: spec.replicas: 100000 replicas need more pods than the browser allows (at most 20000 pods at once); ask for fewer replicas",
		"absurd.yaml: document 1, line 7: spec.timeline[0].replicas: 25000 replicas need more pods than the browser allows (at most 20000 pods at once); ask for fewer replicas",
	}
	got := Errors(s.CheckLimits("absurd.yaml", BrowserCeilings))
	if len(got) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Error() != want[i] {
			t.Errorf("error %d:\n got %s\nwant %s", i, got[i].Error(), want[i])
		}
	}
	// The command line allows more, but not this.
	cli := Errors(s.CheckLimits("absurd.yaml", CLICeilings))
	if len(cli) != 4 || cli[0].Error() != "absurd.yaml: document 1, line 5: spec.limits.maxPods: 100000 is more than the command line allows: at most 50000 pods at once (lower spec.limits.maxPods in the Scenario document)" {
		t.Fatalf("command line: %v", cli)
	}
}

func TestCheckLimitsReplicasAboveTheFilesPodLimit(t *testing.T) {
	src := strings.Replace(strings.Replace(absurd, "limits: {maxPods: 100000, maxSteps: 10000000, maxTraceRecords: 100000000}", "limits: {maxPods: 50}", 1), "replicas: 25000", "replicas: 10", 1)
	s, err := Parse("small.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := Errors(s.CheckLimits("small.yaml", BrowserCeilings))
	want := "small.yaml: document 2, line 13: spec.replicas: 100000 replicas need more pods than the pod limit, 50 (spec.limits.maxPods); raise spec.limits.maxPods in the Scenario document (the browser allows up to 20000) or ask for fewer replicas"
	if len(got) != 1 || got[0].Error() != want {
		t.Fatalf("got %v\nwant %s", got, want)
	}
	// Within every limit: no error, in either front end.
	fits := strings.Replace(src, "replicas: 100000", "replicas: 50", 1)
	s, err = Parse("fits.yaml", []byte(fits))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Ceilings{BrowserCeilings, CLICeilings} {
		if err := s.CheckLimits("fits.yaml", c); err != nil {
			t.Fatalf("%s: %v", c.Where, err)
		}
	}
}

// TestRolloutPeakOverThePodLimit: replicas within the pod limit load, but a
// rolling update that may want more pods than it (replicas + maxSurge,
// rounded up, 25% by default) gets a notice at the replicas' line; a
// Recreate Deployment, or a surge that fits, gets none. An error over the
// ceiling names the replicas' line too.
func TestRolloutPeakOverThePodLimit(t *testing.T) {
	dep := func(replicas int, strategy string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: " + strconv.Itoa(replicas) +
			"\n  selector: {matchLabels: {app: web}}\n" + strategy +
			"  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx}]\n"
	}
	peaks := func(src string) []Notice {
		t.Helper()
		s, err := Parse("web.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var out []Notice
		for _, n := range s.Notices {
			if n.Code == NoticeLimit {
				out = append(out, n)
			}
		}
		return out
	}
	got := peaks(dep(9000, ""))
	if len(got) != 1 || got[0].Line != 6 || !strings.Contains(got[0].Message, "may want about 13500 pods at once (9000 replicas + maxSurge 2250 new ones + up to maxUnavailable 2250 old ones still terminating), more than the pod limit, 10000") {
		t.Fatalf("9000 replicas, default strategy: %+v", got)
	}
	// 80 replicas at 25%/25% within 100 pods: 80 + 20 + 20 = 120 (a run of
	// it stopped at "120 pods exist").
	if got := peaks("apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: s}\nspec:\n  limits: {maxPods: 100}\n---\n" + dep(80, "")); len(got) != 1 || !strings.Contains(got[0].Message, "about 120 pods") {
		t.Fatalf("80 replicas, pod limit 100: %+v", got)
	}
	if got := peaks(dep(9000, "  strategy: {type: Recreate}\n")); len(got) != 0 {
		t.Fatalf("Recreate: %+v", got)
	}
	if got := peaks(dep(9000, "  strategy: {rollingUpdate: {maxSurge: 500, maxUnavailable: 500}}\n")); len(got) != 0 {
		t.Fatalf("9000 + 500 + 500 fits 10000: %+v", got)
	}
	// 25% of 8001 rounds up for the surge (2001) and down for unavailability (2000).
	if got := peaks(dep(8001, "  strategy: {rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}\n")); len(got) != 1 || !strings.Contains(got[0].Message, "about 12002 pods") {
		t.Fatalf("8001 + 2001 + 2000: %+v", got)
	}
	// Both zero after rounding: the fencepost rule makes unavailability 1.
	if got := peaks(dep(9999, "  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0%}}\n")); len(got) != 0 {
		t.Fatalf("9999 + 0 + 1 fits 10000: %+v", got)
	}
	s, err := Parse("web.yaml", []byte(dep(20000, "")))
	if err != nil {
		t.Fatal(err)
	}
	err = s.CheckLimits("web.yaml", BrowserCeilings)
	if err == nil || !strings.Contains(err.Error(), "web.yaml: document 1, line 6: spec.replicas: 20000 replicas") {
		t.Fatalf("over the ceiling: %v", err)
	}
}
