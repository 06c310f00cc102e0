package session

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/engine/sim"
)

// ExportScenario returns the scenario file with the user's actions folded
// into its timeline, so that loading and playing it shows what the user
// saw. Each user action becomes an entry `when: {step: N}` written in JSON
// (which YAML reads as a flow mapping); N is the step after which it was
// made, plus one per user entry before it, because a timeline action takes
// a step of its own where a user action took none. The entries go in the
// order the actions ran: after the scenario's own entries that had run by
// then, before those that had not, or not yet in the run computed so far
// (an "after" trigger of such a later entry then counts from the user's
// action).
//
// A file without a Scenario document gets one, with the timeline alone.
// Example: a Deployment file on which the user set an image after step 12
// exports as that file preceded by
//
//	apiVersion: rolloutlab.dev/v1alpha1
//	kind: Scenario
//	metadata: {name: web}
//	spec:
//	  timeline:
//	  - {"action":"setImage","image":"nginx:1.26","target":"deployment/web","when":{"step":12}}
func (s *Session) ExportScenario() []byte {
	if len(s.user) == 0 {
		return append([]byte(nil), s.source...)
	}
	// ranAt[j]: the step at which the scenario's entry j ran.
	var ranAt []int
	for _, h := range s.history {
		if h.Kind == sim.StepAction && h.Component == "timeline" {
			ranAt = append(ranAt, h.Step)
		}
	}
	// before[j]: the user entries to write just before scenario entry j
	// (j == len(timeline): after all of them).
	before := make([][]string, len(s.scen.Timeline)+1)
	for i, u := range s.user {
		// j: the first scenario entry that had not run when the user
		// acted (not run at all in the run computed so far, or later).
		j := 0
		for j < len(ranAt) && j < len(s.scen.Timeline) && ranAt[j] <= u.AtStep {
			j++
		}
		before[j] = append(before[j], userEntry(u.Action, u.AtStep+i))
	}
	return foldTimeline(s.source, s.scen, before)
}

// userEntry writes one action as a timeline entry in JSON.
func userEntry(a scenario.Action, step int) string {
	e := map[string]any{"action": a.Type.String(), "when": map[string]int{"step": step}}
	if a.Target.Name != "" {
		e["target"] = a.Target.String()
	}
	if a.Namespace != "" && a.Namespace != "default" {
		e["namespace"] = a.Namespace
	}
	put := func(k string, v any, ok bool) {
		if ok {
			e[k] = v
		}
	}
	switch a.Type {
	case scenario.ActionScale:
		e["replicas"] = a.Replicas
	case scenario.ActionUndo:
		put("toRevision", a.ToRevision, a.ToRevision != 0)
	case scenario.ActionDelete:
		put("propagationPolicy", a.PropagationPolicy, a.PropagationPolicy != "")
	case scenario.ActionDeletePod:
		e["name"] = a.Pod
	case scenario.ActionFailNode, scenario.ActionRecoverNode:
		e["node"] = a.Node
	case scenario.ActionApply:
		var docs []string
		for _, o := range a.Manifest {
			b, _ := json.Marshal(o.Obj)
			docs = append(docs, string(b))
		}
		e["manifest"] = strings.Join(docs, "\n---\n")
	case scenario.ActionSetEnv:
		env := map[string]any{}
		for _, c := range a.Env {
			if c.Remove {
				env[c.Name] = nil
			} else {
				env[c.Name] = c.Value
			}
		}
		e["env"] = env
	}
	put("container", a.Container, a.Container != "")
	put("image", a.Image, a.Image != "" && a.Type != scenario.ActionSetImageProfile)
	put("maxSurge", a.MaxSurge, a.MaxSurge != nil)
	put("maxUnavailable", a.MaxUnavailable, a.MaxUnavailable != nil)
	put("strategy", a.Strategy, a.Strategy != "")
	put("minReadySeconds", a.MinReadySeconds, a.Type == scenario.ActionSetMinReadySeconds)
	put("progressDeadlineSeconds", a.ProgressDeadlineSeconds, a.Type == scenario.ActionSetProgressDeadline)
	put("resources", a.Resources, a.Resources != nil)
	b, _ := json.Marshal(e)
	return string(b)
}

// foldTimeline writes the user entries into the Scenario document's
// spec.timeline of src: before[j] ahead of the file's entry j (located by
// its line), before[len] after the last entry.
func foldTimeline(src []byte, scen *scenario.Scenario, before [][]string) []byte {
	lines := strings.Split(string(src), "\n")
	item := func(indent, entry string) string { return indent + "- " + entry }
	tl := findTimeline(lines)
	if tl.key < 0 {
		var all []string
		for _, b := range before {
			all = append(all, b...)
		}
		head := "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: " + strconv.Quote(scen.Name) + "}\nspec:\n  timeline:\n"
		if tl.scenarioEnd >= 0 {
			// A Scenario document without spec.timeline: add it at its end.
			var add []string
			if !tl.hasSpec {
				add = append(add, "spec:")
			}
			add = append(add, "  timeline:")
			for _, e := range all {
				add = append(add, item("  ", e))
			}
			out := append(append(append([]string{}, lines[:tl.scenarioEnd]...), add...), lines[tl.scenarioEnd:]...)
			return []byte(strings.Join(out, "\n"))
		}
		for _, e := range all {
			head += item("  ", e) + "\n"
		}
		return []byte(head + "---\n" + string(src))
	}
	// insertAt[line index] = entries to insert before that line.
	insertAt := map[int][]string{}
	for j, a := range scen.Timeline[:min(len(scen.Timeline), len(before)-1)] {
		if len(before[j]) > 0 && a.Line > 0 {
			insertAt[a.Line-1] = before[j]
		}
	}
	insertAt[tl.end] = append(insertAt[tl.end], before[len(before)-1]...)
	var out []string
	for i := 0; i <= len(lines); i++ {
		for _, e := range insertAt[i] {
			out = append(out, item(tl.indent, e))
		}
		if i == tl.key && tl.flowEmpty {
			out = append(out, strings.Replace(lines[i], "[]", "", 1))
			continue
		}
		if i < len(lines) {
			out = append(out, lines[i])
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// timelineAt is where spec.timeline sits in a file's lines.
type timelineAt struct {
	// key is the line index of "timeline:" (-1: none); end the index of
	// the first line after its list; indent the list items' indentation.
	key, end  int
	indent    string
	flowEmpty bool // written "timeline: []"
	// scenarioEnd is the index of the line that ends the Scenario
	// document ("---" or the end), -1 when there is none; hasSpec tells
	// whether it has a spec key.
	scenarioEnd int
	hasSpec     bool
}

func findTimeline(lines []string) timelineAt {
	tl := timelineAt{key: -1, scenarioEnd: -1}
	inScenario := false
	for i := 0; i <= len(lines); i++ {
		if i == len(lines) || strings.HasPrefix(lines[i], "---") {
			if inScenario {
				tl.scenarioEnd = i
				if tl.key >= 0 && tl.end < 0 {
					tl.end = i
				}
				return tl
			}
			continue
		}
		l := lines[i]
		if strings.TrimSpace(l) == "kind: Scenario" {
			inScenario = true
		}
		if strings.HasPrefix(l, "spec:") {
			tl.hasSpec = true
		}
		trimmed := strings.TrimLeft(l, " ")
		ind := len(l) - len(trimmed)
		switch {
		case tl.key < 0 && strings.HasPrefix(trimmed, "timeline:") && ind > 0:
			tl.key, tl.end = i, -1
			tl.flowEmpty = strings.TrimSpace(strings.TrimPrefix(trimmed, "timeline:")) == "[]"
			tl.indent = l[:ind]
		case tl.key >= 0 && tl.end < 0 && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "#"):
			if strings.HasPrefix(trimmed, "- ") && i == firstItem(lines, tl.key) {
				tl.indent = l[:ind]
			}
			if ind < len(tl.indent) || (ind == len(tl.indent) && !strings.HasPrefix(trimmed, "-")) {
				tl.end = i
			}
		}
	}
	if !inScenario {
		tl.key = -1
	}
	return tl
}

// firstItem is the index of the first non-blank line after key.
func firstItem(lines []string, key int) int {
	for i := key + 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return i
		}
	}
	return -1
}
