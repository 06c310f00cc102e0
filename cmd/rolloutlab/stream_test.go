package main

import (
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// TestStreamTimelineWritesWriteTimelinesBytes checks that the timeline
// written while the run is taken (forward-only, trace released as written)
// is the one written after the run, for every table mode.
func TestStreamTimelineWritesWriteTimelinesBytes(t *testing.T) {
	load := func(id string) *session.Session {
		src, _ := scenarios.Source(id)
		s, err := session.Load(id, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	stop := until{kind: untilSettle}
	for _, id := range []string{"adoption", "rollback", "node-failure", "rs-delete-foreground"} {
		for _, mode := range []tablesMode{tablesActions, tablesEnd, tablesNone} {
			after := load(id)
			after.RunToEnd()
			var want strings.Builder
			if err := writeTimeline(&want, after, id, stop, mode); err != nil {
				t.Fatal(err)
			}

			s := load(id)
			s.SetForwardOnly()
			var got strings.Builder
			finish := streamTimeline(&got, s, id, stop, mode)
			s.RunToEnd()
			if err := finish(); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%s, tables %v: the streamed timeline differs from the one written after the run", id, mode)
			}
		}
	}
}
