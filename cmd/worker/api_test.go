package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
	return newAPI(func() (store, error) { return m, nil }, newMapTable()), m
}

func do(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	return rec
}

const scenario = "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: shared\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n"

// padded returns scenario followed by comment lines, exactly n bytes long.
func padded(n int) string {
	s := scenario + "#"
	return s + strings.Repeat("x", n-len(s))
}

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
	if rec.Code != http.StatusOK || rec.Body.String() != scenario || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
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
		{"empty body", "POST", "/api/scenarios", "", 422, `{"error":"not a Rollout Lab scenario: empty scenario"}`},
		{"binary body", "POST", "/api/scenarios", "\xff\xfe", 422, `{"error":"not a Rollout Lab scenario: scenario is not UTF-8 text"}`},
		{"script body", "POST", "/api/scenarios", "<script>alert(1)</script>", 422, `{"error":"not a Rollout Lab scenario: scenario contains markup (\u003cscript)"}`},
		{"plain text", "POST", "/api/scenarios", "name: rolling-update\nreplicas: 3\n", 422, `{"error":"not a Rollout Lab scenario: document 1 has no top-level apiVersion and kind"}`},
		{"exactly the limit", "POST", "/api/scenarios", padded(maxScenarioBytes), 201, `{"id":"`},
		{"one byte over", "POST", "/api/scenarios", padded(maxScenarioBytes + 1), 413, `{"error":"scenario is larger than 256 KiB"}`},
		{"30 MB", "POST", "/api/scenarios", strings.Repeat("a", 30<<20), 413, `{"error":"scenario is larger than 256 KiB"}`},
		{"short link", "GET", "/s/" + strings.Repeat("0", 32), "", 302, ``},
		{"bad short link", "GET", "/s/nope", "", 404, `{"error":"no such share link"}`},
		{"other path", "GET", "/nope", "", 404, `{"error":"not found"}`},
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
	h := newAPI(func() (store, error) { return m, nil }, newMapTable())
	if rec := do(h, "POST", "/api/scenarios", scenario); rec.Code != 500 || !strings.Contains(rec.Body.String(), "kv down") {
		t.Errorf("POST with failing store: %d %q", rec.Code, rec.Body.String())
	}
	if rec := do(h, "GET", "/api/scenarios/"+scenarioID(scenario), ""); rec.Code != 500 {
		t.Errorf("GET with failing store: %d %q", rec.Code, rec.Body.String())
	}
	unbound := newAPI(func() (store, error) { return nil, errors.New("SCENARIOS is undefined") }, newMapTable())
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

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	h, _ := newTestAPI()
	for _, req := range [][3]string{{"GET", "/api/health", ""}, {"POST", "/api/scenarios", "<script>"}, {"POST", "/api/scenarios", scenario}, {"GET", "/api/scenarios/" + scenarioID(scenario), ""}, {"GET", "/api/nope", ""}, {"GET", "/s/" + scenarioID(scenario), ""}} {
		rec := do(h, req[0], req[1], req[2])
		for name, want := range map[string]string{"Content-Security-Policy": apiCSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin"} {
			if got := rec.Header().Get(name); got != want {
				t.Errorf("%s %s: %s = %q, want %q", req[0], req[1], name, got, want)
			}
		}
	}
}

func TestRejectedBodiesStoreNothing(t *testing.T) {
	h, m := newTestAPI()
	for _, body := range []string{"<script>alert(1)</script>", "apiVersion: v1\nkind: Secret\n", "hello", padded(maxScenarioBytes + 1), "apiVersion: apps/v1\nkind: Deployment\n<iframe src=x>"} {
		if rec := do(h, "POST", "/api/scenarios", body); rec.Code < 400 || rec.Code >= 500 {
			t.Errorf("POST %.30q: %d, want 4xx", body, rec.Code)
		}
	}
	if len(m.records) != 0 {
		t.Errorf("%d records stored from rejected bodies", len(m.records))
	}
}

func TestShortLinkRedirectsToTheApp(t *testing.T) {
	h, _ := newTestAPI()
	id := scenarioID(scenario)
	rec := do(h, "GET", "/s/"+id, "")
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "/?s="+id {
		t.Errorf("GET /s/{id}: %d Location %q", rec.Code, rec.Header().Get("Location"))
	}
}

func TestWriteRateLimit(t *testing.T) {
	m := &memStore{records: map[string]string{}}
	now := int64(0)
	h := newAPIWithClock(func() (store, error) { return m, nil }, newMapTable(), func() int64 { return now })
	post := func(ip string) int {
		req := httptest.NewRequest("POST", "/api/scenarios", strings.NewReader(scenario))
		req.Header.Set("CF-Connecting-IP", ip)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for i := range writesPerWindow {
		if code := post("192.0.2.1"); code != http.StatusCreated {
			t.Fatalf("write %d: %d", i+1, code)
		}
	}
	if code := post("192.0.2.1"); code != http.StatusTooManyRequests {
		t.Errorf("write over the limit: %d, want 429", code)
	}
	if code := post("192.0.2.2"); code != http.StatusCreated {
		t.Errorf("another client: %d, want 201", code)
	}
	now += writeWindow.Milliseconds()
	if code := post("192.0.2.1"); code != http.StatusCreated {
		t.Errorf("next window: %d, want 201", code)
	}
}

func TestCheckScenario(t *testing.T) {
	lib, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(lib) == 0 {
		t.Fatalf("no library scenarios: %v", err)
	}
	for _, f := range lib {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkScenario(b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for body, want := range map[string]string{
		"apiVersion: apps/v1\nkind: Deployment\n":                               "",
		"---\n# comment\n---\napiVersion: \"apps/v1\"\nkind: ReplicaSet # rs\n": "",
		"apiVersion: v1\nkind: Pod\n":                                           "no Scenario, Deployment, ReplicaSet or List in the file",
		"apiVersion: v1\nkind: Secret\n":                                        "no Scenario, Deployment, ReplicaSet or List in the file",
		// A Helm chart's output: kinds the app does not simulate are kept (it lists them as notices).
		"apiVersion: v1\nkind: ConfigMap\n---\napiVersion: v1\nkind: Service\n---\napiVersion: apps/v1\nkind: Deployment\n": "",
		"apiVersion: apps/v1\nkind: Deployment\n---\nfoo: bar\n":                                                            "document 2 has no top-level apiVersion and kind",
		"apiVersion: apps/v1\nkind: Deployment\n# <SCRIPT src=x>\n":                                                         "scenario contains markup (<script)",
		"apiVersion: apps/v1\nkind: Deployment\n\x00":                                                                       "scenario contains a NUL byte",
	} {
		err := checkScenario([]byte(body))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("checkScenario(%q) = %q, want %q", body, got, want)
		}
	}
}
