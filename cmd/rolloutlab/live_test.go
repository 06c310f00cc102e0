package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// liveList is a `kubectl get deploy,rs,pods -o yaml` List of a rollout at 3
// of 10 (see engine/scenario/testdata/live).
const liveList = "../../engine/scenario/testdata/live/three-of-ten.yaml"

// check on a List of cluster output: ok, and its notices on stdout.
func TestCheckLiveList(t *testing.T) {
	out, stderr := mustRun(t, exitOK, "check", liveList)
	for _, want := range []string{
		liveList + ": ok (scenario web, seed 0, 14 objects, 0 timeline actions)\n",
		liveList + ":3: notice: cluster output is the initial state of the cluster (14 objects): status, generation and revisions kept",
		liveList + ": notice: cluster output: timestamps rebased so that the latest one (2026-11-20T09:44:05Z) is the start of the simulation",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if stderr != "" {
		t.Errorf("stderr %q", stderr)
	}
}

// run --until step=0 --format state prints the pasted state as loaded: the
// old ReplicaSet at 7, the new at 4 with 3 ready, one pod still pending.
func TestRunLiveStateAtStepZero(t *testing.T) {
	out, stderr := mustRun(t, exitOK, "run", liveList, "--until", "step=0", "--format", "state")
	if !strings.Contains(stderr, "notice: cluster output is the initial state") {
		t.Errorf("stderr lacks the notices: %q", stderr)
	}
	var list struct {
		Items []struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name        string            `json:"name"`
				Namespace   string            `json:"namespace"`
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
			Spec struct {
				Replicas *int32 `json:"replicas"`
			} `json:"spec"`
			Status struct {
				Replicas      int32  `json:"replicas"`
				ReadyReplicas int32  `json:"readyReplicas"`
				Phase         string `json:"phase"`
			} `json:"status"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	pending := 0
	for _, it := range list.Items {
		if it.Metadata.Namespace != "shop" && it.Kind != "Node" {
			t.Errorf("%s/%s in namespace %q", it.Kind, it.Metadata.Name, it.Metadata.Namespace)
		}
		switch it.Kind {
		case "ReplicaSet":
			got[it.Metadata.Name] = it.Metadata.Annotations["deployment.kubernetes.io/revision"] + ":" +
				string(rune('0'+*it.Spec.Replicas)) + "/" + string(rune('0'+it.Status.ReadyReplicas))
		case "Pod":
			if it.Status.Phase == "Pending" {
				pending++
			}
		}
	}
	if got["web-66b8d5f9c7"] != "2:7/7" || got["web-84f7c6d9b5"] != "3:4/3" || pending != 1 {
		t.Fatalf("step 0 state: %v, %d pending", got, pending)
	}
}

// --spec-only leaves out what the Deployment manages and runs a fresh
// rollout to completion.
func TestRunLiveSpecOnly(t *testing.T) {
	out, stderr := mustRun(t, exitOK, "run", liveList, "--spec-only", "--tables", "end")
	if !strings.Contains(stderr, "notice: ReplicaSet/web-66b8d5f9c7: spec only: left out, it is managed by Deployment/web") {
		t.Errorf("stderr %q", stderr)
	}
	if !strings.Contains(out, "# end:") {
		t.Errorf("no end line:\n%s", out)
	}
}

// An empty file has nothing to simulate: check fails and says so.
func TestCheckEmptyFile(t *testing.T) {
	code, _, stderr := runWithStdin(t.Context(), "---\n", "check", "-")
	if code != exitRuntime || !strings.Contains(stderr, "<stdin>: nothing to simulate") {
		t.Fatalf("exit %v, stderr %q", code, stderr)
	}
}

// The tables of a run show the namespace the pasted objects live in.
func TestRunLiveTablesNamespace(t *testing.T) {
	out, _ := mustRun(t, exitOK, "run", liveList, "--until", "step=0")
	wantIn(t, out,
		"$ kubectl get deploy,rs,pods -n shop    # after set-up at +0.000s\n",
		"deployment.apps/web   10/10   4            10          43h\n",
		"replicaset.apps/web-84f7c6d9b5   4         4         3       2m15s\n",
		"pod/web-84f7c6d9b5-p8qto   0/1     ContainerCreating   0          35s\n",
	)
}
