package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestListWriterWritesMarshalIndentsBytes checks the streamed List against
// json.MarshalIndent of the whole list, with no, one and several items.
func TestListWriterWritesMarshalIndentsBytes(t *testing.T) {
	type obj struct {
		Kind string            `json:"kind"`
		Spec map[string]any    `json:"spec,omitempty"`
		Tags []string          `json:"tags"`
		Note string            `json:"note,omitempty"`
		Meta map[string]string `json:"metadata"`
	}
	all := []any{
		obj{Kind: "Pod", Spec: map[string]any{"n": 1, "list": []int{1, 2}}, Meta: map[string]string{"name": "a<b>&c"}},
		obj{Kind: "Event", Tags: []string{}, Note: "x"},
		obj{Kind: "Pod"},
	}
	for n := 0; n <= len(all); n++ {
		items := all[:n]
		var got strings.Builder
		lw := &listWriter{w: &got}
		for _, it := range items {
			lw.item(it)
		}
		if err := lw.end("42"); err != nil {
			t.Fatal(err)
		}
		unstructured := make([]any, 0, n)
		for _, it := range items {
			u, err := toUnstructured(it)
			if err != nil {
				t.Fatal(err)
			}
			unstructured = append(unstructured, u)
		}
		want, err := json.MarshalIndent(map[string]any{
			"apiVersion": "v1", "kind": "List", "items": unstructured,
			"metadata": map[string]any{"resourceVersion": "42"},
		}, "", "    ")
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != string(want)+"\n" {
			t.Errorf("%d items:\ngot  %q\nwant %q", n, got.String(), string(want)+"\n")
		}
	}
}
