package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// memStore is an in-memory store that keeps records in their stored form,
// so decodeRecord is exercised as on KV.
type memStore struct {
	records map[string]string
	fail    error
}

func (m *memStore) Get(id string) (string, error) {
	if m.fail != nil {
		return "", m.fail
	}
	raw, ok := m.records[id]
	if !ok {
		raw = "<null>" // what the KV binding yields for a missing key
	}
	s, ok := decodeRecord(raw)
	if !ok {
		return "", errNotFound
	}
	return s, nil
}

func (m *memStore) Put(id, scenario string) error {
	if m.fail != nil {
		return m.fail
	}
	m.records[id] = encodeRecord(scenario)
	return nil
}

func newTestAPI() (http.Handler, *memStore) {
	m := &memStore{records: map[string]string{}}
	return newAPI(func() (store, error) { return m, nil }), m
}

func do(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	return rec
}

const scenario = "name: rolling-update\nreplicas: 3\n"

func TestScenarioID(t *testing.T) {
	// The doc comment's example: SHA-256 of the empty string, first 16 bytes.
	if got := scenarioID(""); got != "e3b0c44298fc1c149afbf4c8996fb924" {
		t.Errorf("scenarioID(\"\") = %q", got)
	}
	if got := scenarioID(scenario); !idPattern.MatchString(got) || got == scenarioID(scenario+" ") {
		t.Errorf("scenarioID(%q) = %q: not a distinct 32-hex id", scenario, got)
	}
}

func TestRoundTrip(t *testing.T) {
	h, m := newTestAPI()
	id := scenarioID(scenario)

	rec := do(h, "POST", "/api/scenarios", scenario)
	if rec.Code != http.StatusCreated || rec.Body.String() != `{"id":"`+id+`"}`+"\n" {
		t.Fatalf("POST: %d %q", rec.Code, rec.Body.String())
	}
	if got := rec.Header().Get("Location"); got != "/api/scenarios/"+id {
		t.Errorf("Location = %q", got)
	}
	if m.records[id] != recordPrefix+scenario {
		t.Errorf("stored record %q", m.records[id])
	}
	// Same content, same id; the store still holds one record.
	if rec := do(h, "POST", "/api/scenarios", scenario); rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), id) || len(m.records) != 1 {
		t.Errorf("second POST: %d %q, %d records", rec.Code, rec.Body.String(), len(m.records))
	}

	rec = do(h, "GET", "/api/scenarios/"+id, "")
	if rec.Code != http.StatusOK || rec.Body.String() != scenario || rec.Header().Get("Content-Type") != "text/yaml; charset=utf-8" {
		t.Errorf("GET: %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
}

func TestErrors(t *testing.T) {
	h, _ := newTestAPI()
	tests := []struct {
		name, method, path, body string
		wantStatus               int
		wantBody                 string
	}{
		{"health", "GET", "/api/health", "", 200, `{"ok":true}`},
		{"absent id", "GET", "/api/scenarios/" + strings.Repeat("0", 32), "", 404, `{"error":"scenario not found"}`},
		{"malformed id", "GET", "/api/scenarios/not-an-id", "", 404, `{"error":"scenario not found"}`},
		{"short id", "GET", "/api/scenarios/abc", "", 404, `{"error":"scenario not found"}`},
		{"upper-case id", "GET", "/api/scenarios/" + strings.Repeat("A", 32), "", 404, `{"error":"scenario not found"}`},
		{"empty body", "POST", "/api/scenarios", "", 400, `{"error":"empty scenario"}`},
		{"binary body", "POST", "/api/scenarios", "\xff\xfe", 400, `{"error":"scenario is not UTF-8 text"}`},
		{"exactly the limit", "POST", "/api/scenarios", strings.Repeat("a", maxScenarioBytes), 201, `{"id":"`},
		{"one byte over", "POST", "/api/scenarios", strings.Repeat("a", maxScenarioBytes+1), 413, `{"error":"scenario is larger than 256 KiB"}`},
		{"unknown endpoint", "GET", "/api/nope", "", 404, `{"error":"no such endpoint"}`},
		{"wrong method", "DELETE", "/api/scenarios/" + strings.Repeat("0", 32), "", 405, `{"error":"method not allowed"}`},
		{"get the collection", "GET", "/api/scenarios", "", 405, `{"error":"method not allowed"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(h, tc.method, tc.path, tc.body)
			if rec.Code != tc.wantStatus || !strings.HasPrefix(rec.Body.String(), tc.wantBody) {
				t.Errorf("%s %s: %d %q, want %d %q…", tc.method, tc.path, rec.Code, rec.Body.String(), tc.wantStatus, tc.wantBody)
			}
		})
	}
}

func TestStorageFailure(t *testing.T) {
	m := &memStore{records: map[string]string{}, fail: errors.New("kv down")}
	h := newAPI(func() (store, error) { return m, nil })
	if rec := do(h, "POST", "/api/scenarios", scenario); rec.Code != 500 || !strings.Contains(rec.Body.String(), "kv down") {
		t.Errorf("POST with failing store: %d %q", rec.Code, rec.Body.String())
	}
	if rec := do(h, "GET", "/api/scenarios/"+scenarioID(scenario), ""); rec.Code != 500 {
		t.Errorf("GET with failing store: %d %q", rec.Code, rec.Body.String())
	}
	unbound := newAPI(func() (store, error) { return nil, errors.New("SCENARIOS is undefined") })
	if rec := do(unbound, "POST", "/api/scenarios", scenario); rec.Code != 500 || !strings.Contains(rec.Body.String(), "storage unavailable") {
		t.Errorf("POST without binding: %d %q", rec.Code, rec.Body.String())
	}
}

func TestDecodeRecord(t *testing.T) {
	for raw, want := range map[string]struct {
		s  string
		ok bool
	}{
		recordPrefix + "a: 1\n": {"a: 1\n", true},
		recordPrefix:            {"", true},
		"<null>":                {"", false},
		"a: 1\n":                {"", false},
	} {
		if s, ok := decodeRecord(raw); s != want.s || ok != want.ok {
			t.Errorf("decodeRecord(%q) = %q, %v; want %q, %v", raw, s, ok, want.s, want.ok)
		}
	}
}
