package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/compare"
)

// The summary rows of maxSurge 1 against 100% for a 20-replica rollout (the
// numbers are reasoned out in engine/compare's TestMaxSurge).
const surgeRows = `                              A                   B
time to complete              15s (at +15.000s)   6s (at +6.000s)
peak pods (surge)             21 (+1)             40 (+20)
peak RS total                 21                  40
min available                 15                  15
pods created                  40                  40
pods deleted                  20                  20
`

func TestCompareSet(t *testing.T) {
	out, stderr := mustRun(t, exitOK, "compare", "testdata/surge-1.yaml", "--set", "spec.strategy.rollingUpdate.maxSurge=100%", "--events", "1")
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
	wantIn(t, out,
		"A: testdata/surge-1.yaml\nB: spec.strategy.rollingUpdate.maxSurge=100%\nBoth from step 0 (+0.000s).\n\n"+surgeRows,
		"  A: deployment/web 20/20 available, complete, nginx:1.26\n",
		"First divergence: The runs part at step 2 (+0.000s): both take sync deployment-controller default/web",
		"  B: deployment-controller decision: NewRSNewReplicas: maxTotalPods = replicas 20 + maxSurge 20 = 40;",
		"Events only in B: 20\n  +3.000s  Normal  ScalingReplicaSet  deployment/web  Scaled up replica set web-7f6f88cb57 from 0 to 20\n  ... and 19 more",
	)
}

// Two futures of one change: the image of a pasted `kubectl get deployment
// -o yaml` (6 running pods, maxSurge and maxUnavailable 25%) rolled out with
// its strategy (A) and with maxSurge 100% (B). A's ReplicaSets total at most
// 6 + 2 (25% of 6 rounded up), B's 6 + 6; both keep 5 available (25% of 6
// rounded down is 1). B's pods peak at 11: the old ReplicaSet, queued first,
// deletes its pod before the new one creates six. The page's What if? room
// gives the same numbers for the image applied at step 0 and kept in B
// (web/e2e/live-paste.spec.ts).
func TestCompareBoth(t *testing.T) {
	out, stderr := mustRun(t, exitOK, "compare", "../../engine/scenario/testdata/live/deployment-only.yaml",
		"--both", "spec.template.spec.containers[0].image=ghcr.io/acme/checkout:2.4.0", "--set", "spec.strategy.rollingUpdate.maxSurge=100%")
	if strings.Contains(stderr, "invalid") {
		t.Errorf("stderr: %s", stderr)
	}
	wantIn(t, out,
		"A: ../../engine/scenario/testdata/live/deployment-only.yaml spec.template.spec.containers[0].image=ghcr.io/acme/checkout:2.4.0\nB: spec.strategy.rollingUpdate.maxSurge=100%\n",
		"time to complete              24s (at +24.000s)   12s (at +12.000s)\npeak pods (surge)             8 (+2)              11 (+5)\npeak RS total                 8                   12\nmin available                 5                   5\npods created                  6                   6\n",
		"  A: deployment/checkout 6/6 available, complete, ghcr.io/acme/checkout:2.4.0\n",
		"  B: deployment/checkout 6/6 available, complete, ghcr.io/acme/checkout:2.4.0\n",
	)
}

// Two files give the same comparison as one file with --set, labelled by
// the file names; --format json is the engine's Result.
func TestCompareFilesJSON(t *testing.T) {
	out, _ := mustRun(t, exitOK, "compare", "testdata/surge-1.yaml", "testdata/surge-100.yaml")
	if !strings.Contains(out, "B: testdata/surge-100.yaml\n") || !strings.Contains(out, surgeRows) {
		t.Errorf("output:\n%s", out)
	}
	js, _ := mustRun(t, exitOK, "compare", "--format", "json", "testdata/surge-1.yaml", "testdata/surge-100.yaml")
	var r compare.Result
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatal(err)
	}
	if r.B.PeakPods != 40 || r.A.PeakReplicaSetTotal != 21 || len(r.Events.OnlyB) != 20 || r.Divergence == nil || r.Divergence.Step != 2 {
		t.Errorf("json: %+v", r)
	}
	again, _ := mustRun(t, exitOK, "compare", "--format", "json", "testdata/surge-1.yaml", "testdata/surge-100.yaml")
	if again != js {
		t.Error("two runs printed different bytes")
	}
}

func TestCompareErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code exitCode
		want string
	}{
		{[]string{"compare", "testdata/surge-1.yaml"}, exitUsage, "want two files, or one file and --set; got 1 files"},
		{[]string{"compare", "a.yaml", "b.yaml", "--set", "spec.replicas=3"}, exitUsage, "with --set, want exactly one file; got 2"},
		{[]string{"compare", "testdata/surge-1.yaml", "--set", "spec.replicas"}, exitUsage, "want path=value"},
		{[]string{"compare", "testdata/surge-1.yaml", "--set", "x=1", "--format", "yaml"}, exitUsage, `unknown --format "yaml"`},
		{[]string{"compare", "testdata/surge-1.yaml", "--set", "deployment/api:spec.replicas=3"}, exitRuntime, "no deployment/api in the file"},
		{[]string{"compare", "testdata/surge-1.yaml", "--set", "spec.strategy.rollingUpdate.maxSurge=lots"}, exitRuntime, "testdata/surge-1.yaml with --set is invalid"},
		{[]string{"compare", "testdata/surge-1.yaml", "testdata/bad.yaml"}, exitRuntime, "testdata/bad.yaml is invalid"},
		{[]string{"compare", "testdata/surge-1.yaml", "testdata/missing.yaml"}, exitRuntime, "missing.yaml"},
		{[]string{"compare", "testdata/surge-1.yaml", "--both", "spec.replicas=3"}, exitUsage, "--both needs --set"},
		{[]string{"compare", "testdata/surge-1.yaml", "--both", "spec.replicas=-3", "--set", "spec.replicas=4"}, exitRuntime, "testdata/surge-1.yaml with --both is invalid"},
	} {
		code, _, stderr := runCLI(t.Context(), tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %v, stderr %q; want %v and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

func TestCompareHelp(t *testing.T) {
	out, _ := mustRun(t, exitOK, "help", "compare")
	for _, want := range []string{"Usage: rolloutlab compare A.yaml (B.yaml | [--both [deployment/NAME:]PATH=VALUE ...] --set", "--set spec.strategy.rollingUpdate.maxSurge=100%", "min available", "-events N"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
}
