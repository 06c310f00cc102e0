package session

import (
	"reflect"
	"slices"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// FilterRecords returns what a filter over every record returns: the trace
// skips the payloads of the records it rejects, which must not change the
// answer.
func TestFilterRecordsMatchesAFullScan(t *testing.T) {
	s := load(t, "rolling-update-10-3-2")
	s.RunToEnd()
	all := s.Sim().Recorder().Records()
	for _, f := range []RecordFilter{
		{},
		{Limit: 10_000},
		{From: 40, To: 900, Limit: 10_000},
		{Kinds: []string{"decision", "sync"}, Limit: 7},
		{Sources: []string{"kubelet", "replicaset-controller"}, From: 100},
		{Kinds: []string{"api"}, Sources: []string{"apiserver"}, To: 1500, Limit: 10_000},
		{Kinds: []string{"event"}, From: uint64(len(all)) - 300},
		{Kinds: []string{"decision"}, Limit: 1, Last: true},
		{Kinds: []string{"decision"}, From: 40, To: 900, Limit: 5, Last: true},
		{Sources: []string{"kubelet"}, To: 1500, Limit: 10_000, Last: true},
		{Kinds: []string{"decision"}, From: 1, To: 3, Limit: 1, Last: true},
	} {
		got, total := FilterRecords(s.Sim().Recorder(), f)
		want, wantTotal := naiveFilter(all, f)
		if total != wantTotal || !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: %d records of %d, want %d of %d", f, len(got), total, len(want), wantTotal)
		}
	}
}

// naiveFilter is FilterRecords over a slice, decoding everything.
func naiveFilter(all []trace.Record, f RecordFilter) ([]trace.Record, int) {
	limit := f.Limit
	if limit <= 0 {
		limit = 500
	}
	passing := []trace.Record{}
	for _, r := range all {
		if (f.From > 0 && r.Seq < f.From) || (f.To > 0 && r.Seq > f.To) ||
			(len(f.Kinds) > 0 && !slices.Contains(f.Kinds, r.Kind().String())) ||
			(len(f.Sources) > 0 && !slices.Contains(f.Sources, r.Source)) {
			continue
		}
		passing = append(passing, r)
	}
	if len(passing) <= limit {
		return passing, len(passing)
	}
	if f.Last {
		return passing[len(passing)-limit:], len(passing)
	}
	return passing[:limit], len(passing)
}
