package deployutil

import (
	"math"
	"strings"
	"testing"
)

func TestOracleCleanupDeployment(t *testing.T) {
	runOracle(t, "cleanup_deployment", func(t *testing.T, c oracleCase) {
		var in struct {
			Limit  *int32 `json:"revisionHistoryLimit"`
			OldRSs []rsIn `json:"oldRSs"`
		}
		var want struct {
			Deleted []string `json:"deleted"`
		}
		decode(t, c.Input, &in)
		decode(t, c.Expected, &want)
		d := newDeployment(t, 1, "RollingUpdate", nil, nil)
		d.Spec.RevisionHistoryLimit = in.Limit
		p := CleanupDeployment(d, buildRSs(t, in.OldRSs))
		if g, w := strings.Join(p.Delete, ","), strings.Join(want.Deleted, ","); g != w {
			t.Fatalf("deleted [%s], want [%s]; %s", g, w, p.Text())
		}
		if p.Disabled != (in.Limit == nil || *in.Limit == math.MaxInt32) {
			t.Errorf("disabled %v", p.Disabled)
		}
	})
}

// TestCleanupWorkedExample checks CleanupDeployment's doc example and text.
func TestCleanupWorkedExample(t *testing.T) {
	d := newDeployment(t, 1, "RollingUpdate", nil, nil)
	d.Spec.RevisionHistoryLimit = int32p(1)
	mk := func(name, rev string, replicas int32) *rsIn {
		in := &rsIn{Name: name, Replicas: replicas, Annotations: map[string]string{RevisionAnnotation: rev}}
		in.Status.Replicas = replicas
		return in
	}
	p := CleanupDeployment(d, buildRSs(t, []rsIn{*mk("foo-3", "3", 0), *mk("foo-1", "1", 1), *mk("foo-2", "2", 0)}))
	want := "cleanupDeployment: cleanable 3 - limit 1 = diff 2; foo-1 (rev 1) kept: status.replicas != 0; " +
		"foo-2 (rev 2) delete; foo-3 (rev 3) kept: within revisionHistoryLimit -> delete [foo-2]"
	if p.Text() != want {
		t.Errorf("got  %s\nwant %s", p.Text(), want)
	}
}
