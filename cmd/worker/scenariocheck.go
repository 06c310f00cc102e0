package main

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// checkScenario is the Worker's cheap structural check of a body before it is
// stored. The Worker never links the engine, so this is not a parse: it
// accepts UTF-8 YAML whose every non-empty document ("---" separated) has a
// top-level apiVersion and kind, at least one of them a Scenario, Deployment,
// ReplicaSet or List (other kinds, such as a Helm chart's Service and
// ConfigMap, are allowed: the app lists them as not simulated), and no markup that a browser could run
// ("<script", "<iframe", "<!doctype", "<html", "<svg", "<object", "<embed").
// The engine still validates the scenario fully when a page loads it.
//
//	checkScenario("apiVersion: apps/v1\nkind: Deployment\n...") == nil
//	checkScenario("<script>alert(1)</script>")                   != nil
func checkScenario(body []byte) error {
	if len(body) == 0 {
		return fmt.Errorf("empty scenario")
	}
	if !utf8.Valid(body) {
		return fmt.Errorf("scenario is not UTF-8 text")
	}
	if bytes.IndexByte(body, 0) >= 0 {
		return fmt.Errorf("scenario contains a NUL byte")
	}
	lower := strings.ToLower(string(body))
	for _, tag := range []string{"<script", "<iframe", "<!doctype", "<html", "<svg", "<object", "<embed"} {
		if strings.Contains(lower, tag) {
			return fmt.Errorf("scenario contains markup (%s)", tag)
		}
	}
	main := false
	docs := 0
	for i, doc := range splitDocuments(string(body)) {
		apiVersion, kind := topLevel(doc, "apiVersion"), topLevel(doc, "kind")
		if apiVersion == "" && kind == "" && strings.TrimSpace(stripComments(doc)) == "" {
			continue // an empty document, e.g. before a leading "---"
		}
		docs++
		if apiVersion == "" || kind == "" {
			return fmt.Errorf("document %d has no top-level apiVersion and kind", i+1)
		}
		if kind == "Scenario" || kind == "Deployment" || kind == "ReplicaSet" || kind == "List" {
			main = true
		}
	}
	if docs == 0 || !main {
		return fmt.Errorf("no Scenario, Deployment, ReplicaSet or List in the file")
	}
	return nil
}

// splitDocuments splits YAML text at "---" separator lines.
func splitDocuments(s string) []string {
	var docs []string
	var cur strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		trimmed := strings.TrimRight(line, " \t\r")
		if trimmed == "---" || strings.HasPrefix(trimmed, "--- ") {
			docs = append(docs, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	return append(docs, cur.String())
}

// topLevel returns the scalar value of a column-0 "key: value" line, without
// quotes and trailing comments, or "".
func topLevel(doc, key string) string {
	for line := range strings.SplitSeq(doc, "\n") {
		rest, ok := strings.CutPrefix(line, key+":")
		if !ok {
			continue
		}
		v := strings.TrimSpace(stripComment(rest))
		return strings.Trim(v, `"'`)
	}
	return ""
}

func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	return s
}

// stripComments drops comment lines, so a document of comments counts as empty.
func stripComments(doc string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}
