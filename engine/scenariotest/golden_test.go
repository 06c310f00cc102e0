package scenariotest

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/trace"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// fullTraceBytesMax is the largest trace a golden holds line for line;
// bigger traces are summarised (see goldenText).
const fullTraceBytesMax = 64 << 10

// libraryRun is one library scenario run to its end.
type libraryRun struct {
	id     string
	runner *Runner
}

// runLibrary loads scenario id with its own seed and runs it to the end,
// checking invariants after every step.
func runLibrary(t testing.TB, id string) libraryRun {
	t.Helper()
	src, ok := scenarios.Source(id)
	if !ok {
		t.Fatalf("no scenario %q", id)
	}
	sess, err := session.Load(id+".yaml", src, nil)
	if err != nil {
		t.Fatalf("load %s: %v", id, err)
	}
	r := NewRunner(sess)
	r.RunToEnd()
	if len(r.Steps) != sess.Step() || len(r.Steps) == 0 {
		t.Fatalf("%s: the checker saw %d steps of %d", id, len(r.Steps), sess.Step())
	}
	if err := sess.Sim().Err(); err != nil {
		t.Fatalf("%s seed=%d: run stopped: %v", id, sess.Seed(), err)
	}
	if p := sess.Sim().PendingActions(); len(p) > 0 {
		t.Fatalf("%s seed=%d: timeline actions never ran: %v", id, sess.Seed(), p)
	}
	return libraryRun{id: id, runner: r}
}

// digest is the SHA-256 of a text, in hex.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// kubectlViews renders get deploy, get rs and get pods -o wide.
func kubectlViews(t testing.TB, sess *session.Session) string {
	t.Helper()
	var b strings.Builder
	for _, cmd := range []string{"get deploy", "get rs", "get pods -o wide"} {
		out, err := sess.Kubectl(cmd)
		if err != nil {
			t.Fatalf("kubectl %s: %v", cmd, err)
		}
		b.WriteString("$ kubectl " + cmd + "\n" + out)
		if !strings.HasSuffix(out, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// summarisedKinds are the record kinds a summarised golden leaves out: the
// mechanical bulk (watch deliveries, queue operations, sync start/end).
var summarisedKinds = map[trace.Kind]bool{trace.KindWatch: true, trace.KindQueue: true, trace.KindSync: true}

// goldenText renders a finished run: the digest of the full text trace,
// then either the full trace (small runs) or a summary (record counts by
// source and kind) followed by every record except watch, queue and sync
// records, then the kubectl views.
func goldenText(t testing.TB, lr libraryRun) string {
	sess := lr.runner.Sess
	rec := sess.Sim().Recorder()
	full := rec.Text()
	var b strings.Builder
	fmt.Fprintf(&b, "scenario %s seed=%d steps=%d records=%d end=+%s\n", lr.id, sess.Seed(), sess.Step(), rec.Len(), sess.Sim().Clock().Elapsed())
	fmt.Fprintf(&b, "trace sha256=%s bytes=%d\n", digest(full), len(full))
	if len(full) <= fullTraceBytesMax {
		b.WriteString("full trace:\n")
		b.WriteString(full)
	} else {
		counts := map[string]int{}
		for _, r := range rec.Records() {
			counts[r.Source+" "+r.Kind().String()]++
		}
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("record counts (source kind):\n")
		for _, k := range keys {
			fmt.Fprintf(&b, "  %-40s %d\n", k, counts[k])
		}
		b.WriteString("trace without watch, queue and sync records:\n")
		b.WriteString(rec.Header() + "\n")
		for _, r := range rec.Records() {
			if !summarisedKinds[r.Kind()] {
				b.WriteString(r.Text() + "\n")
			}
		}
	}
	b.WriteString(kubectlViews(t, sess))
	return b.String()
}

// rewriting reports whether -rewrite was given.
func rewriting() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}

// TestGolden runs every library scenario to its end and compares the trace
// and the final kubectl views with testdata/<id>.golden (regenerate with
// -rewrite, then review every diff). Invariants are checked after every
// step and completion at the end.
func TestGolden(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			lr := runLibrary(t, id)
			if msg := lr.runner.Failure(lr.runner.Violations); msg != "" {
				t.Error(msg)
			}
			if msg := lr.runner.Failure(lr.runner.Incomplete()); msg != "" {
				t.Error(msg)
			}
			path := filepath.Join("testdata", id+".golden")
			if _, err := os.Stat(path); os.IsNotExist(err) && rewriting() {
				if err := os.WriteFile(path, []byte("# Golden run of scenarios/"+id+".yaml; regenerate with -rewrite.\nrun\n----\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
				if d.Cmd != "run" {
					d.Fatalf(t, "unknown command %q", d.Cmd)
				}
				return goldenText(t, lr)
			})
		})
	}
}

// TestLibraryDeterminism runs every library scenario twice and requires
// byte-identical traces and views. Together with the digests in the
// goldens (checked natively and under js/wasm) this pins determinism
// across runs and platforms.
func TestLibraryDeterminism(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			a, b := runLibrary(t, id), runLibrary(t, id)
			ta, tb := a.runner.Sess.Sim().Recorder().Text(), b.runner.Sess.Sim().Recorder().Text()
			if ta != tb {
				t.Fatalf("%s seed=%d: traces differ between two runs:\n%s", id, a.runner.Sess.Seed(), firstDiff(ta, tb))
			}
			if va, vb := kubectlViews(t, a.runner.Sess), kubectlViews(t, b.runner.Sess); va != vb {
				t.Fatalf("%s: views differ:\n%s", id, firstDiff(va, vb))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d vs %d lines", len(la), len(lb))
}
