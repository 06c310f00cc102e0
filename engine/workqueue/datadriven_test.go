package workqueue

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine/clock"
	"github.com/rolloutlab/rolloutlab/engine/internal/datadriven"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// TestDataDriven runs the scenarios in testdata/. Each command prints the
// records it produced (time, source, kind, text); "state" prints Snapshot.
// Invariants are checked after every command. A file starts with the default
// controller limiter; "new" replaces the queue.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := newHarness(t, nil)
		datadriven.RunFile(t, path, func(t *testing.T, d *datadriven.TestData) string {
			h.t = t
			before := uint64(h.rec.Len())
			out := runCommand(t, h, d)
			if err := h.q.CheckInvariants(); err != nil {
				d.Fatalf(t, "%v", err)
			}
			var b strings.Builder
			for _, r := range h.rec.Since(before) {
				b.WriteString(r.Text())
				b.WriteByte('\n')
			}
			b.WriteString(out)
			if b.Len() == 0 {
				return "ok\n"
			}
			return b.String()
		})
	})
}

func runCommand(t *testing.T, h *harness, d *datadriven.TestData) string {
	key := func() string {
		k, ok := d.Arg("key")
		if !ok {
			d.Fatalf(t, "%s needs key=", d.Cmd)
		}
		return k
	}
	// reason=(a, b) keeps commas: the parser splits on them.
	reason := func() string {
		for _, a := range d.CmdArgs {
			if a.Key == "reason" {
				return strings.Join(a.Values, ",")
			}
		}
		return ""
	}
	dur := func(name string) time.Duration {
		s, ok := d.Arg(name)
		if !ok {
			d.Fatalf(t, "%s needs %s=", d.Cmd, name)
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
		return v
	}
	switch d.Cmd {
	case "new":
		// new [base=5ms] [max=1000s] [qps=10] [burst=100]
		base, maxDelay, qps, burst := DefaultBaseDelay, DefaultMaxDelay, DefaultQPS, DefaultBurst
		if d.HasArg("base") {
			base = dur("base")
		}
		if d.HasArg("max") {
			maxDelay = dur("max")
		}
		if s, ok := d.Arg("qps"); ok {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			qps = v
		}
		if s, ok := d.Arg("burst"); ok {
			v, err := strconv.Atoi(s)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			burst = v
		}
		c := clock.New(clock.Epoch)
		rec := trace.NewRecorder(c, 1)
		rl := NewMaxOf(NewItemExponential(base, maxDelay), NewBucket(qps, burst))
		*h = harness{t: t, c: c, rec: rec, q: New("replicaset", c, rec, "replicaset-controller", rl)}
		return ""
	case "add":
		h.q.Add(key(), reason())
	case "add-after":
		h.q.AddAfter(key(), reason(), dur("delay"))
	case "rate-limited":
		// rate-limited key=a [times=N]
		n := 1
		if s, ok := d.Arg("times"); ok {
			v, err := strconv.Atoi(s)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			n = v
		}
		for range n {
			h.q.AddRateLimited(key(), reason())
		}
	case "forget":
		h.q.Forget(key())
	case "get":
		k, reasons, ok := h.q.Get()
		if !ok {
			return "empty\n"
		}
		return fmt.Sprintf("=> %s %q\n", k, reasons)
	case "done":
		h.q.Done(key())
	case "advance":
		h.c.Advance(dur("by"))
		n := h.q.PromoteDue()
		return fmt.Sprintf("now %s, promoted %d\n", clock.FormatOffset(h.c.Elapsed()), n)
	case "next-ready":
		at, ok := h.q.NextReadyAt()
		if !ok {
			return "none\n"
		}
		return "next ready " + clock.FormatOffset(at.Sub(h.c.Start())) + "\n"
	case "num-requeues":
		return strconv.Itoa(h.q.NumRequeues(key())) + "\n"
	case "state":
		return h.q.Snapshot().Text(h.c.Start())
	default:
		d.Fatalf(t, "unknown command %q", d.Cmd)
	}
	return ""
}
