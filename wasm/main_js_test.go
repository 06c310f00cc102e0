//go:build js && wasm

package main

import (
	"encoding/json"
	"testing"

	"github.com/hack-pad/safejs"
)

// TestInstall drives the bridge the way the page does: through the global
// JavaScript object, including the readiness callback and a panicking handler.
func TestInstall(t *testing.T) {
	global := safejs.Global()
	readyCalls := 0
	onReady, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		readyCalls++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer onReady.Release()
	must(t, global.Set("__rolloutlabOnReady", onReady.Value()))
	defer global.Delete("__rolloutlabOnReady")

	must(t, install(global, testAPI()))
	defer global.Delete("rolloutlab")

	if readyCalls != 1 {
		t.Errorf("__rolloutlabOnReady called %d times, want 1", readyCalls)
	}
	bridge, err := global.Get("rolloutlab")
	must(t, err)
	ready, err := bridge.Get("ready")
	must(t, err)
	if ok, _ := ready.Bool(); !ok {
		t.Error("rolloutlab.ready is not true")
	}

	tests := []struct {
		name    string
		args    []any
		ok      bool
		panic   bool
		message string
	}{
		{"version", []any{"version"}, true, false, ""},
		{"version with args", []any{"version", "{}"}, true, false, ""},
		{"panic survives", []any{"panic", "null"}, false, true, `internal error in "panic": kaboom`},
		{"no method", nil, false, false, errBadCall.Error()},
		{"method not a string", []any{42}, false, false, errBadCall.Error()},
		{"args not a string", []any{"echo", 42}, false, false, errBadCall.Error()},
		{"version after panic", []any{"version"}, true, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := bridge.Call("call", tc.args...)
			must(t, err)
			s, err := out.String()
			must(t, err)
			var r result
			if err := json.Unmarshal([]byte(s), &r); err != nil {
				t.Fatalf("result %q is not JSON: %v", s, err)
			}
			if r.OK != tc.ok {
				t.Fatalf("ok = %v, want %v (result %s)", r.OK, tc.ok, s)
			}
			if !tc.ok && (r.Error.Panic != tc.panic || r.Error.Message != tc.message) {
				t.Errorf("error = %+v, want panic=%v message=%q", r.Error, tc.panic, tc.message)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
