package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/scenarios"
)

// runWithStdin is runCLI with stdin.
func runWithStdin(ctx context.Context, stdin string, args ...string) (code exitCode, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = dispatch(env{ctx: ctx, stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

// mustRun runs the CLI and fails the test unless it exits with want.
// wantIn fails t for each of wants that out does not contain.
func wantIn(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func mustRun(t *testing.T, want exitCode, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := runCLI(t.Context(), args...)
	if code != want {
		t.Fatalf("rolloutlab %s: exit %v, want %v; stderr:\n%s", strings.Join(args, " "), code, want, stderr)
	}
	return stdout, stderr
}

// tableAfter returns the kubectl table printed under the comment when.
func tableAfter(t *testing.T, text, when string) string {
	t.Helper()
	marker := "$ kubectl get deploy,rs,pods    # " + when + "\n"
	_, rest, ok := strings.Cut(text, marker)
	if !ok {
		t.Fatalf("no table %q in:\n%s", when, text)
	}
	// A table ends at the first blank line not followed by another table
	// block (blocks start with their header).
	end := 0
	for {
		i := strings.Index(rest[end:], "\n\n")
		if i < 0 {
			return rest
		}
		end += i + 2
		if !strings.HasPrefix(rest[end:], "NAME ") {
			return rest[:end-1]
		}
	}
}

func TestRunTextAdoption(t *testing.T) {
	out, stderr := mustRun(t, exitOK, "run", "library:adoption")
	if stderr != "" {
		t.Errorf("stderr = %q, want nothing", stderr)
	}
	if !strings.HasPrefix(out, "# rolloutlab trace v1 seed=1\n# scenario adoption (library:adoption) --until settle\n+0.000s set-up\n") {
		t.Errorf("header:\n%s", out[:min(len(out), 300)])
	}
	for _, want := range []string{
		"  +5.000s replicaset-controller decision: ReplicaSet default/replicatest adopt Pod default/test: done (orphan labels env=prod match selector env=prod)\n",
		"replicaset-controller decision: manage default/replicatest: active 1, desired 2, diff -1 -> create 1 (slow start batches 1)\n",
		"+5.000s step 8 action timeline apply 1 object(s)\n",
		"timeline action: delete replicaset/replicatest --cascade=background: replicaset.apps \"replicatest\" deleted\n",
		"\n# end: step 36 at +10.000s; nothing is due\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("timeline lacks %q", want)
		}
	}
	if n := strings.Count(out, "adopt Pod default/test"); n != 1 {
		t.Errorf("%d adoptions of default/test, want 1", n)
	}
	if n := strings.Count(out, "apiserver api: replicaset-controller create pods "); n != 1 {
		t.Errorf("the ReplicaSet controller created %d pods, want exactly 1 (it adopts test)", n)
	}
	// Tables: after set-up, after each of the two timeline actions, at the end.
	if n := strings.Count(out, "$ kubectl get deploy,rs,pods"); n != 4 {
		t.Errorf("%d tables, want 4", n)
	}
	if got, want := tableAfter(t, out, "after set-up at +0.000s"),
		"NAME       READY   STATUS    RESTARTS   AGE\npod/test   0/1     Pending   0          0s\n"; got != want {
		t.Errorf("set-up table:\n%s\nwant:\n%s", got, want)
	}
	if got, want := tableAfter(t, out, "after step 8 at +5.000s"),
		"NAME                          DESIRED   CURRENT   READY   AGE\n"+
			"replicaset.apps/replicatest   2         0         0       0s\n"+
			"\n"+
			"NAME       READY   STATUS    RESTARTS   AGE\n"+
			"pod/test   1/1     Running   0          5s\n"; got != want {
		t.Errorf("table after the apply:\n%s\nwant:\n%s", got, want)
	}
	// The RS is deleted at the end of the timeline and its pods are gone.
	if got := tableAfter(t, out, "at the end"); got != "No resources found in default namespace.\n" {
		t.Errorf("end table %q, want the no-resources line", got)
	}
}

func TestRunTablesFlag(t *testing.T) {
	for _, tc := range []struct {
		tables string
		want   int
	}{{"actions", 4}, {"end", 1}, {"none", 0}} {
		out, _ := mustRun(t, exitOK, "run", "library:adoption", "--tables", tc.tables)
		if n := strings.Count(out, "$ kubectl get"); n != tc.want {
			t.Errorf("--tables %s: %d tables, want %d", tc.tables, n, tc.want)
		}
	}
}

// traceDoc is the JSON format, decoded for assertions.
type traceDoc struct {
	Schema   string `json:"schema"`
	Seed     uint64 `json:"seed"`
	Scenario string `json:"scenario"`
	Steps    []struct {
		Step      int    `json:"step"`
		Kind      string `json:"kind"`
		Component string `json:"component"`
		Key       string `json:"key"`
		AtNs      int64  `json:"atNs"`
		FirstSeq  uint64 `json:"firstSeq"`
		LastSeq   uint64 `json:"lastSeq"`
	} `json:"steps"`
	Records []struct {
		Seq    uint64          `json:"seq"`
		Step   int             `json:"step"`
		AtNs   int64           `json:"atNs"`
		Source string          `json:"source"`
		Kind   string          `json:"kind"`
		Type   string          `json:"type"`
		Text   string          `json:"text"`
		Data   json.RawMessage `json:"data"`
	} `json:"records"`
}

func decodeTrace(t *testing.T, out string) traceDoc {
	t.Helper()
	var doc traceDoc
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("JSON trace does not decode: %v", err)
	}
	return doc
}

func TestRunJSONAdoption(t *testing.T) {
	out, _ := mustRun(t, exitOK, "run", "library:adoption", "--format", "json")
	doc := decodeTrace(t, out)
	if doc.Schema != "rolloutlab.trace/v1" || doc.Seed != 1 || doc.Scenario != "adoption" {
		t.Errorf("header: schema %q seed %d scenario %q", doc.Schema, doc.Seed, doc.Scenario)
	}
	if len(doc.Steps) != 36 {
		t.Fatalf("%d steps, want 36", len(doc.Steps))
	}
	for i, s := range doc.Steps {
		if s.Step != i+1 {
			t.Fatalf("steps[%d].step = %d", i, s.Step)
		}
	}
	for i, r := range doc.Records {
		if r.Seq != uint64(i+1) || r.Kind == "" || r.Type == "" || r.Text == "" || len(r.Data) == 0 {
			t.Fatalf("record %d incomplete: %+v", i, r)
		}
	}
	if last := doc.Steps[len(doc.Steps)-1]; last.LastSeq != uint64(len(doc.Records)) || last.AtNs != 10e9 {
		t.Errorf("last step %+v, %d records", last, len(doc.Records))
	}
	first := doc.Records[0]
	if first.Type != "Note" || first.Kind != "sim" || !strings.Contains(first.Text, "seed=1") {
		t.Errorf("first record %+v, want the simulation start note", first)
	}
	adoptions := 0
	for _, r := range doc.Records {
		if r.Kind == "decision" && strings.Contains(r.Text, "adopt Pod default/test") {
			adoptions++
		}
	}
	if adoptions != 1 {
		t.Errorf("%d adoption decisions, want 1", adoptions)
	}
}

func TestRunJSONSeedOverride(t *testing.T) {
	out, _ := mustRun(t, exitOK, "run", "--seed", "42", "library:adoption", "--format=json")
	doc := decodeTrace(t, out)
	if doc.Seed != 42 || !strings.Contains(doc.Records[0].Text, "seed=42") {
		t.Errorf("seed %d, first record %q; want 42", doc.Seed, doc.Records[0].Text)
	}
}

// Same scenario, same seed: the same bytes, in every format.
func TestRunDeterministic(t *testing.T) {
	for _, args := range [][]string{
		{"run", "library:adoption", "--format", "json"},
		{"run", "library:rolling-update-10-3-2", "--format", "json"},
		{"run", "library:rollback", "--format", "text"},
		{"run", "library:proportional-scaling", "--format", "state"},
	} {
		a, _ := mustRun(t, exitOK, args...)
		b, _ := mustRun(t, exitOK, args...)
		if a != b {
			t.Errorf("%v: two runs differ", args)
		}
	}
}

// kubeList is the state format, decoded for assertions.
type kubeList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		ResourceVersion string `json:"resourceVersion"`
	} `json:"metadata"`
	Items []struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name            string `json:"name"`
			Namespace       string `json:"namespace"`
			ResourceVersion string `json:"resourceVersion"`
			OwnerReferences []struct {
				Kind       string `json:"kind"`
				Name       string `json:"name"`
				Controller bool   `json:"controller"`
			} `json:"ownerReferences"`
		} `json:"metadata"`
	} `json:"items"`
}

func decodeList(t *testing.T, out string) (kubeList, []string) {
	t.Helper()
	var l kubeList
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("state does not decode: %v", err)
	}
	if l.APIVersion != "v1" || l.Kind != "List" || l.Metadata.ResourceVersion == "" {
		t.Errorf("list header %q %q rv %q", l.APIVersion, l.Kind, l.Metadata.ResourceVersion)
	}
	var items []string
	for _, it := range l.Items {
		items = append(items, it.APIVersion+" "+it.Kind+" "+it.Metadata.Namespace+"/"+it.Metadata.Name)
	}
	return l, items
}

func TestRunStateAdoption(t *testing.T) {
	// Played out: the ReplicaSet was deleted and its pods are gone; only
	// the controller's Event remains.
	out, _ := mustRun(t, exitOK, "run", "library:adoption", "--format", "state")
	if !strings.HasPrefix(out, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n") || !strings.HasSuffix(out, "}\n") {
		t.Errorf("not kubectl's layout:\n%s", out[:min(len(out), 200)])
	}
	l, items := decodeList(t, out)
	if got, want := strings.Join(items, "\n"), "v1 Event default/replicatest.1886725317fff200"; got != want {
		t.Errorf("items at the end:\n%s\nwant:\n%s", got, want)
	}
	if l.Metadata.ResourceVersion != "22" {
		t.Errorf("list resourceVersion %q, want 22 (the last write)", l.Metadata.ResourceVersion)
	}

	// At +7s the ReplicaSet owns the adopted pod and the one it created.
	out, _ = mustRun(t, exitOK, "run", "library:adoption", "--format", "state", "--until", "7s")
	l, items = decodeList(t, out)
	want := "apps/v1 ReplicaSet default/replicatest\nv1 Pod default/replicatest-xh5m5\nv1 Pod default/test\nv1 Event default/replicatest.1886725317fff200"
	if got := strings.Join(items, "\n"); got != want {
		t.Errorf("items at +7s:\n%s\nwant:\n%s", got, want)
	}
	for _, it := range l.Items {
		if it.Kind != "Pod" {
			continue
		}
		if refs := it.Metadata.OwnerReferences; len(refs) != 1 || refs[0].Kind != "ReplicaSet" || refs[0].Name != "replicatest" || !refs[0].Controller {
			t.Errorf("pod %s owners %+v, want controller ReplicaSet replicatest", it.Metadata.Name, refs)
		}
	}
}

func TestRunUntil(t *testing.T) {
	tests := []struct {
		until     string
		wantSteps int
		wantEnd   string
	}{
		// Timeline entries are armed one at a time: one is pending.
		{"step=0", 0, "# end: step 0 at +0.000s; 1 timeline action pending: apply 1 object(s); next event due at +0.000s\n"},
		{"step=10", 10, "# end: step 10 at +5.000s; 1 timeline action pending: delete replicaset/replicatest --cascade=background; next event due at +5.000s\n"},
		// Every event at or before +7s: the second pod runs, is not ready yet.
		{"7s", 21, "# end: step 21 at +7.000s; 1 timeline action pending: delete replicaset/replicatest --cascade=background; next event due at +8.000s\n"},
		{"4.5s", 7, "# end: step 7 at +3.000s; 1 timeline action pending: apply 1 object(s); next event due at +5.000s\n"},
		// Past the end of the run: the same as settle.
		{"30s", 36, "# end: step 36 at +10.000s; nothing is due\n"},
		{"settle", 36, "# end: step 36 at +10.000s; nothing is due\n"},
	}
	for _, tc := range tests {
		t.Run(tc.until, func(t *testing.T) {
			out, _ := mustRun(t, exitOK, "run", "library:adoption", "--until", tc.until, "--tables", "none")
			if !strings.HasSuffix(out, tc.wantEnd) {
				t.Errorf("ends with %q, want %q", out[strings.LastIndex(out[:len(out)-1], "\n")+1:], tc.wantEnd)
			}
			js, _ := mustRun(t, exitOK, "run", "library:adoption", "--until", tc.until, "--format", "json")
			if doc := decodeTrace(t, js); len(doc.Steps) != tc.wantSteps {
				t.Errorf("json has %d steps, want %d", len(doc.Steps), tc.wantSteps)
			}
		})
	}
}

func TestRunUntilStepPastTheEnd(t *testing.T) {
	code, out, stderr := runCLI(t.Context(), "run", "library:adoption", "--until", "step=500")
	if code != exitRuntime || out != "" || stderr != "rolloutlab run: --until step=500: no such step: the run ends at step 36\n" {
		t.Errorf("exit %v stdout %q stderr %q", code, out, stderr)
	}
}

func TestRunStdin(t *testing.T) {
	src, _ := scenarios.Source("adoption")
	code, out, stderr := runWithStdin(t.Context(), string(src), "run", "-", "--format", "json")
	want, _ := mustRun(t, exitOK, "run", "library:adoption", "--format", "json")
	if code != exitOK || out != want {
		t.Errorf("stdin run: exit %v, same output as library: %v; stderr %q", code, out == want, stderr)
	}
}

func TestRunFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "adoption.yaml")
	src, _ := scenarios.Source("adoption")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := mustRun(t, exitOK, "run", path, "--tables", "end")
	want, _ := mustRun(t, exitOK, "run", "library:adoption", "--tables", "end")
	want = strings.Replace(want, "(library:adoption)", "("+path+")", 1)
	if out != want {
		t.Errorf("a file and the library entry with the same text run differently:\n%s", out)
	}
}

func TestRunStepLimit(t *testing.T) {
	code, out, stderr := runCLI(t.Context(), "run", "testdata/limit.yaml", "--tables", "none")
	if code != exitRuntime {
		t.Errorf("exit %v, want %v", code, exitRuntime)
	}
	if !strings.HasSuffix(out, "  +0.000s sim sim: run stopped: step limit reached: 10 steps (spec.limits.maxSteps)\n# end: step 10 at +0.000s; run stopped: step limit reached: 10 steps (spec.limits.maxSteps)\n") {
		t.Errorf("the trace up to the limit is not printed:\n%s", out)
	}
	if want := "rolloutlab run: testdata/limit.yaml (seed 5): run stopped at step 10: step limit reached: 10 steps (spec.limits.maxSteps)\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// A file asking for 100,000 replicas with raised limits ran for 37 s and took
// 3.2 GB before it failed; it is refused at once, naming the limits.
func TestRunRefusesLimitsAboveTheCommandLinesCeiling(t *testing.T) {
	code, out, stderr := runCLI(t.Context(), "run", "testdata/absurd.yaml")
	if code != exitRuntime || out != "" {
		t.Errorf("exit %v, stdout %q; want %v and nothing", code, out, exitRuntime)
	}
	for _, want := range []string{
		"testdata/absurd.yaml:5: spec.limits.maxPods: 100000 is more than the command line allows: at most 50000 pods at once (lower spec.limits.maxPods in the Scenario document)\n",
		"testdata/absurd.yaml:5: spec.limits.maxSteps: 10000000 is more than the command line allows: at most 5000000 steps (lower spec.limits.maxSteps in the Scenario document)\n",
		"testdata/absurd.yaml:11: spec.replicas: 100000 replicas need more pods than the command line allows (at most 50000 pods at once); ask for fewer replicas\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestRunInvalidScenario(t *testing.T) {
	code, out, stderr := runCLI(t.Context(), "run", "testdata/bad.yaml")
	want := "testdata/bad.yaml:8: spec.timeline[0].at: invalid value \"soon\": must be a duration like \"30s\", \"1m30s\" or \"250ms\"\n" +
		"testdata/bad.yaml:18: spec.replica: unknown field (did you mean \"replicas\"?)\n" +
		"rolloutlab run: testdata/bad.yaml is invalid: 2 errors\n"
	if code != exitRuntime || out != "" || stderr != want {
		t.Errorf("exit %v stdout %q stderr:\n%s\nwant:\n%s", code, out, stderr, want)
	}
}

func TestRunUsageErrors(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   exitCode
		wantStderr string
	}{
		{"no file", []string{"run"}, exitUsage, "rolloutlab run: want exactly one FILE, got 0 arguments\n"},
		{"two files", []string{"run", "a.yaml", "b.yaml"}, exitUsage, "rolloutlab run: want exactly one FILE, got 2 arguments\n"},
		{"bad format", []string{"run", "library:adoption", "--format", "yaml"}, exitUsage, "rolloutlab run: unknown --format \"yaml\" (want text, json or state)\n"},
		{"bad tables", []string{"run", "library:adoption", "--tables", "all"}, exitUsage, "rolloutlab run: unknown --tables \"all\" (want actions, end or none)\n"},
		{"bad until", []string{"run", "library:adoption", "--until", "soon"}, exitUsage, "rolloutlab run: invalid --until \"soon\": want settle, a duration such as 90s or 2m, or step=N\n"},
		{"bad step", []string{"run", "library:adoption", "--until", "step=-1"}, exitUsage, "rolloutlab run: invalid --until \"step=-1\": step=N needs a whole number N >= 0\n"},
		{"bad seed", []string{"run", "library:adoption", "--seed", "-1"}, exitUsage, "invalid value \"-1\" for flag -seed: want a whole number from 0 to 18446744073709551615\n"},
		{"unknown flag", []string{"run", "--fast", "library:adoption"}, exitUsage, "flag provided but not defined: -fast\n"},
		{"unknown library id", []string{"run", "library:nope"}, exitUsage, "rolloutlab run: unknown library scenario \"nope\"; `rolloutlab list` shows them: adoption, "},
		{"missing file", []string{"run", "testdata/absent.yaml"}, exitRuntime, "rolloutlab run: open testdata/absent.yaml: no such file or directory\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runCLI(t.Context(), tc.args...)
			if code != tc.wantCode || out != "" || !strings.HasPrefix(stderr, tc.wantStderr) {
				t.Errorf("exit %v stdout %q stderr:\n%s\nwant exit %v, stderr starting %q", code, out, stderr, tc.wantCode, tc.wantStderr)
			}
		})
	}
}

func TestRunHelp(t *testing.T) {
	for _, args := range [][]string{{"run", "--help"}, {"help", "run"}} {
		out, stderr := mustRun(t, exitOK, args...)
		if stderr != "" {
			t.Errorf("%v: help also went to stderr: %q", args, stderr)
		}
		for _, want := range []string{"Usage: rolloutlab run FILE", "library:ID", "step=N", "docs/trace-schema.md", "Exit codes: 0 ok; 1", "2 usage error", "-tables"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: help lacks %q", args, want)
			}
		}
	}
}

// TestRunTextNotes checks that the timeline shows each of the scenario's
// notes right after the records of the step it falls at (where the app's
// presenter and embedded player place it: rolling-update-10-3-2's notes
// at steps 2, 95, 99 and 113, web/e2e/embed.spec.ts), and names at the end
// the notes no step reached, with what each waits for.
func TestRunTextNotes(t *testing.T) {
	out, _ := mustRun(t, exitOK, "run", "library:rolling-update-10-3-2", "--tables", "none")
	lines := strings.Split(out, "\n")
	for n, wantStep := range []int{2, 95, 99, 113} {
		head := fmt.Sprintf("  # note %d of 4: ", n+1)
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, head) })
		if i < 0 {
			t.Fatalf("no %q line", head)
		}
		// The step line above it, past that step's records and the note lines before it.
		j := i - 1
		for j > 0 && strings.HasPrefix(lines[j], "  ") {
			j--
		}
		if want := fmt.Sprintf(" step %d ", wantStep); !strings.Contains(lines[j], want) {
			t.Errorf("note %d follows %q, want the step%s", n+1, lines[j], want)
		}
	}
	wantIn(t, out, "  # note 3 of 4: Expectations\n  #   manageReplicas creates 3 pods and records that it expects 3 adds.")
	if strings.Contains(out, "not reached") {
		t.Errorf("a note of rolling-update-10-3-2 was not reached:\n%s", out[strings.Index(out, "not reached")-80:])
	}

	out, _ = mustRun(t, exitOK, "run", "testdata/notes-edge.yaml", "--tables", "none")
	wantIn(t, out,
		"  # note 1 of 3: Three\n  #   A text written as a block:\n  #\n  #   each of its lines is a comment line.\n+0.000s step 4 ",
		"# note 2 of 3 (line 16, \"Never\") not reached by step 39: it waits for DeletionRanking decision record #1 (0 seen)\n"+
			"# note 3 of 3 (line 18, \"Past the end\") not reached by step 39: it is at step 5000\n"+
			"# end: step 39 at +601.000s; nothing is due\n")
	// Stopped early, the notes after the stop are said to be not reached by then.
	out, _ = mustRun(t, exitOK, "run", "library:rolling-update-10-3-2", "--tables", "none", "--until", "step=96")
	wantIn(t, out, "# note 3 of 4 (line 38, \"Expectations\") not reached by step 96: it is at step 99\n",
		"# note 4 of 4 (line 48, \"Which pods go first\") not reached by step 96: it waits for DeletionRanking decision record #1 (0 seen)\n")
}
