package main

import (
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/scenarios"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   exitCode
		wantStdout string
		wantStderr string
	}{
		{
			name:       "valid library scenario",
			args:       []string{"check", "library:adoption"},
			wantCode:   exitOK,
			wantStdout: "library:adoption: ok (scenario adoption, seed 1, 1 object, 2 timeline actions)\n",
		},
		{
			name:     "parse errors, one per line, then the count",
			args:     []string{"check", "testdata/bad.yaml"},
			wantCode: exitRuntime,
			wantStderr: "testdata/bad.yaml:8: spec.timeline[0].at: invalid value \"soon\": must be a duration like \"30s\", \"1m30s\" or \"250ms\"\n" +
				"testdata/bad.yaml:18: spec.replica: unknown field (did you mean \"replicas\"?)\n" +
				"testdata/bad.yaml: 2 errors\n",
		},
		{
			name:     "object refused by the API server on the dry load",
			args:     []string{"check", "testdata/refused.yaml"},
			wantCode: exitRuntime,
			wantStderr: "testdata/refused.yaml:11: spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels` (API server: ReplicaSet.apps \"web\" is invalid)\n" +
				"testdata/refused.yaml: 1 error\n",
		},
		{
			name:     "stdin",
			args:     []string{"check", "-"},
			stdin:    "kind: Deployment\n",
			wantCode: exitRuntime,
			wantStderr: "<stdin>:1: apiVersion: required field is missing\n" +
				"<stdin>: 1 error\n",
		},
		{
			name:       "several files: worst code wins, valid ones still reported",
			args:       []string{"check", "library:rollback", "testdata/refused.yaml"},
			wantCode:   exitRuntime,
			wantStdout: "library:rollback: ok (scenario rollback, seed 1, 1 object, 3 timeline actions)\n",
			wantStderr: "testdata/refused.yaml: 1 error\n",
		},
		{
			name:       "missing file",
			args:       []string{"check", "testdata/absent.yaml"},
			wantCode:   exitRuntime,
			wantStderr: "rolloutlab check: open testdata/absent.yaml: no such file or directory\n",
		},
		{
			name:       "unknown library id is a usage error",
			args:       []string{"check", "library:adopshun"},
			wantCode:   exitUsage,
			wantStderr: "rolloutlab check: unknown library scenario \"adopshun\"; `rolloutlab list` shows them: adoption, compare-max-surge, crash-loop-undo,",
		},
		{
			name:       "no file",
			args:       []string{"check"},
			wantCode:   exitUsage,
			wantStderr: "rolloutlab check: want at least one FILE\nUsage: rolloutlab check FILE... [--spec-only]",
		},
		{
			name:       "help",
			args:       []string{"check", "--help"},
			wantCode:   exitOK,
			wantStdout: "Usage: rolloutlab check FILE... [--spec-only]\n\nValidates scenario files",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runWithStdin(t.Context(), tc.stdin, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit %v, want %v; stderr %q", code, tc.wantCode, stderr)
			}
			if !strings.HasPrefix(out, tc.wantStdout) || (tc.wantStdout == "" && out != "") {
				t.Errorf("stdout %q, want it to start with %q", out, tc.wantStdout)
			}
			if !strings.Contains(stderr, tc.wantStderr) || (tc.wantStderr == "" && stderr != "") {
				t.Errorf("stderr %q, want it to contain %q", stderr, tc.wantStderr)
			}
		})
	}
}

// Every embedded scenario passes check.
func TestCheckLibrary(t *testing.T) {
	args := []string{"check"}
	for _, id := range scenarios.IDs() {
		args = append(args, libraryPrefix+id)
	}
	out, _ := mustRun(t, exitOK, args...)
	if n := strings.Count(out, ": ok ("); n != len(scenarios.IDs()) {
		t.Errorf("%d scenarios ok, want %d:\n%s", n, len(scenarios.IDs()), out)
	}
}

func TestList(t *testing.T) {
	out, stderr := mustRun(t, exitOK, "list")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(scenarios.IDs())+1 || !strings.HasPrefix(lines[0], "ID ") || stderr != "" {
		t.Fatalf("list:\n%s\nstderr %q", out, stderr)
	}
	want := "adoption                adoption                The demonstration from the ReplicaSet controller walkthrough."
	if lines[1] != want {
		t.Errorf("first entry %q, want %q", lines[1], want)
	}
	if _, stderr := mustRun(t, exitUsage, "list", "extra"); !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("stderr %q", stderr)
	}
}

// The examples in firstSentence's doc comment.
func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Scale up. Then down.":      "Scale up.",
		"No full stop":              "No full stop",
		"Two\n  lines. And more.":   "Two lines.",
		"Ends with a stop.":         "Ends with a stop.",
		"maxSurge 25% (rounds up).": "maxSurge 25% (rounds up).",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiagnostic(t *testing.T) {
	tests := []struct {
		line       int
		field, msg string
		want       string
	}{
		{18, "spec.replica", `unknown field (did you mean "replicas"?)`, `web.yaml:18: spec.replica: unknown field (did you mean "replicas"?)`},
		{3, "", "bad", "web.yaml:3: bad"},
		{0, "", "file is too large", "web.yaml: file is too large"},
	}
	for _, tc := range tests {
		if got := diagnostic("web.yaml", tc.line, tc.field, tc.msg); got != tc.want {
			t.Errorf("diagnostic(%d, %q, %q) = %q, want %q", tc.line, tc.field, tc.msg, got, tc.want)
		}
	}
}
