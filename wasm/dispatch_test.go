package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutlab/rolloutlab/engine"
)

// positioned is an error that points at an input line and field, as a
// scenario parser's errors will.
type positioned struct {
	line  int
	field string
}

func (p positioned) Error() string { return fmt.Sprintf("line %d: %s is invalid", p.line, p.field) }
func (p positioned) Line() int     { return p.line }
func (p positioned) Field() string { return p.field }

// testAPI is the production API plus methods that exercise every path.
func testAPI() api {
	a := methods()
	a["echo"] = func(args json.RawMessage) (any, error) { return args, nil }
	a["fail"] = func(json.RawMessage) (any, error) { return nil, errors.New("boom") }
	a["failAt"] = func(json.RawMessage) (any, error) {
		return nil, fmt.Errorf("parse scenario: %w", positioned{line: 7, field: "spec.replicas"})
	}
	a["panic"] = func(json.RawMessage) (any, error) { panic("kaboom") }
	a["nilDeref"] = func(json.RawMessage) (any, error) {
		var m map[string]*int
		return *m["x"], nil
	}
	a["unencodable"] = func(json.RawMessage) (any, error) { return func() {}, nil }
	return a
}

func TestCall(t *testing.T) {
	versionJSON := fmt.Sprintf(`{"ok":true,"value":{"engine":%q,"upstream":%q}}`, engine.Version, engine.UpstreamVersion)
	tests := []struct {
		name, method, args, want string
	}{
		{"version", "version", "", versionJSON},
		{"version ignores args", "version", `{"x":1}`, versionJSON},
		{"echo passes raw args", "echo", `{"a":[1,2]}`, `{"ok":true,"value":{"a":[1,2]}}`},
		{"missing args are null", "echo", "", `{"ok":true,"value":null}`},
		{"unknown method", "nope", "", `{"ok":false,"error":{"message":"unknown method \"nope\"","line":0,"field":"","panic":false}}`},
		{"invalid args", "echo", `{"a":`, `{"ok":false,"error":{"message":"echo: arguments are not valid JSON","line":0,"field":"","panic":false}}`},
		{"plain error", "fail", "", `{"ok":false,"error":{"message":"boom","line":0,"field":"","panic":false}}`},
		{"wrapped positioned error", "failAt", "", `{"ok":false,"error":{"message":"parse scenario: line 7: spec.replicas is invalid","line":7,"field":"spec.replicas","panic":false}}`},
		{"panic is recovered", "panic", "", `{"ok":false,"error":{"message":"internal error in \"panic\": kaboom","line":0,"field":"","panic":true}}`},
	}
	a := testAPI()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.call(tc.method, tc.args); got != tc.want {
				t.Errorf("call(%q, %q)\n got %s\nwant %s", tc.method, tc.args, got, tc.want)
			}
		})
	}
}

func TestCallRecoversRuntimePanic(t *testing.T) {
	a := testAPI()
	var r result
	decode(t, a.call("nilDeref", ""), &r)
	if r.OK || r.Error == nil || !r.Error.Panic || !strings.Contains(r.Error.Message, "nil pointer dereference") {
		t.Fatalf("got %+v, want a recovered nil-dereference panic", r.Error)
	}
	// The API keeps working after a panic.
	decode(t, a.call("version", ""), &r)
	if !r.OK {
		t.Fatalf("version after panic failed: %+v", r.Error)
	}
}

func TestCallUnencodableValue(t *testing.T) {
	var r result
	decode(t, testAPI().call("unencodable", ""), &r)
	if r.OK || r.Error == nil || !strings.HasPrefix(r.Error.Message, "cannot encode result: ") || r.Error.Panic {
		t.Fatalf("got %+v, want an encoding failure", r.Error)
	}
}

func TestFailure(t *testing.T) {
	want := `{"ok":false,"error":{"message":"call expects (method: string, argsJSON?: string)","line":0,"field":"","panic":false}}`
	if got := failure(errBadCall); got != want {
		t.Errorf("failure(errBadCall) = %s, want %s", got, want)
	}
}

func decode(t *testing.T, s string, r *result) {
	t.Helper()
	*r = result{}
	if err := json.Unmarshal([]byte(s), r); err != nil {
		t.Fatalf("result %q is not JSON: %v", s, err)
	}
}
