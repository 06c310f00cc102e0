package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"unicode/utf8"
)

// maxScenarioBytes is the largest scenario the API accepts (256 KiB).
const maxScenarioBytes = 256 << 10

// idHexLen is the length of a scenario id: the first 16 bytes (128 bits) of
// the SHA-256 of the scenario text, in lower-case hex.
const idHexLen = 32

var idPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

// scenarioID returns the content-hash id of a scenario.
//
//	scenarioID("") == "e3b0c44298fc1c149afbf4c8996fb924"
func scenarioID(scenario string) string {
	sum := sha256.Sum256([]byte(scenario))
	return hex.EncodeToString(sum[:idHexLen/2])
}

// newAPI returns the Worker's HTTP handler. openStore is called once per
// request that needs storage, because on Workers the KV binding belongs to
// the request's environment.
func newAPI(openStore func() (store, error)) http.Handler {
	a := apiHandler{openStore: openStore}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", a.health)
	mux.HandleFunc("POST /api/scenarios", a.create)
	mux.HandleFunc("GET /api/scenarios/{id}", a.get)
	// Fallbacks: a known path with another method, then any other /api path.
	mux.HandleFunc("/api/scenarios", methodNotAllowed("POST"))
	mux.HandleFunc("/api/scenarios/{id}", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/api/health", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint")
	})
	return mux
}

type apiHandler struct {
	openStore func() (store, error)
}

func (a apiHandler) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (a apiHandler) create(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxScenarioBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, "scenario is larger than 256 KiB")
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, "cannot read body: "+err.Error())
		return
	case len(body) == 0:
		writeError(w, http.StatusBadRequest, "empty scenario")
		return
	case !utf8.Valid(body):
		writeError(w, http.StatusBadRequest, "scenario is not UTF-8 text")
		return
	}
	s, err := a.openStore()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "storage unavailable: "+err.Error())
		return
	}
	scenario := string(body)
	id := scenarioID(scenario)
	if err := s.Put(id, scenario); err != nil {
		writeError(w, http.StatusInternalServerError, "cannot store scenario: "+err.Error())
		return
	}
	w.Header().Set("Location", "/api/scenarios/"+id)
	writeJSON(w, http.StatusCreated, map[string]string{"id": id})
}

func (a apiHandler) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !idPattern.MatchString(id) {
		writeError(w, http.StatusNotFound, "scenario not found")
		return
	}
	s, err := a.openStore()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "storage unavailable: "+err.Error())
		return
	}
	scenario, err := s.Get(id)
	switch {
	case errors.Is(err, errNotFound):
		writeError(w, http.StatusNotFound, "scenario not found")
		return
	case err != nil:
		writeError(w, http.StatusInternalServerError, "cannot read scenario: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/yaml; charset=utf-8")
	// Content never changes under an id.
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	io.WriteString(w, scenario)
}

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
