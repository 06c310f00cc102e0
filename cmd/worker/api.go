package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"time"
)

// maxScenarioBytes is the largest scenario the API accepts (256 KiB).
const maxScenarioBytes = 256 << 10

// maxDrainBytes bounds how much of a rejected oversized body the Worker reads
// and discards before answering. Reading it lets the runtime finish the
// request cleanly (an unread request stream left behind can stall the
// connection); beyond this the Worker answers anyway. Cloudflare itself
// refuses bodies over 100 MB.
const maxDrainBytes = 128 << 20

// Writes allowed per client (CF-Connecting-IP) per window; see writeLimiter.
const (
	writesPerWindow = 20
	writeWindow     = 10 * time.Minute
	maxTrackedIPs   = 10_000
)

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
// table keeps the write limiter's counts (see writeLimiter).
func newAPI(openStore func() (store, error), table windowTable) http.Handler {
	return newAPIWithClock(openStore, table, func() int64 { return time.Now().UnixMilli() })
}

// newAPIWithClock is newAPI with the clock the write limiter reads (tests).
func newAPIWithClock(openStore func() (store, error), table windowTable, nowMs func() int64) http.Handler {
	limiter := writeLimiter{limit: writesPerWindow, windowMs: writeWindow.Milliseconds(), maxClients: maxTrackedIPs, table: table}
	a := apiHandler{openStore: openStore, limiter: limiter, nowMs: nowMs}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", a.health)
	mux.HandleFunc("POST /api/scenarios", a.create)
	mux.HandleFunc("GET /api/scenarios/{id}", a.get)
	mux.HandleFunc("GET /s/{id}", a.shortLink)
	// Fallbacks: a known path with another method, then any other /api path.
	mux.HandleFunc("/api/scenarios", methodNotAllowed("POST"))
	mux.HandleFunc("/api/scenarios/{id}", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/api/health", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not found")
	})
	return withSecurityHeaders(mux)
}

type apiHandler struct {
	openStore func() (store, error)
	limiter   writeLimiter
	nowMs     func() int64
}

// clientOf identifies the writer: Cloudflare's connecting-IP header, else
// the socket's address.
func clientOf(r *http.Request) string {
	if ip := r.Header.Get("CF-Connecting-IP"); ip != "" {
		return ip
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// drain reads and discards what is left of a request body (bounded).
func drain(r *http.Request) {
	io.Copy(io.Discard, io.LimitReader(r.Body, maxDrainBytes))
}

func (a apiHandler) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (a apiHandler) create(w http.ResponseWriter, r *http.Request) {
	// A declared length over the limit is refused without buffering it; the
	// body is still read (and discarded) so the request completes cleanly.
	if r.ContentLength > maxScenarioBytes {
		drain(r)
		writeError(w, http.StatusRequestEntityTooLarge, "scenario is larger than 256 KiB")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxScenarioBytes+1))
	switch {
	case err != nil:
		writeError(w, http.StatusBadRequest, "cannot read body: "+err.Error())
		return
	case len(body) > maxScenarioBytes:
		drain(r)
		writeError(w, http.StatusRequestEntityTooLarge, "scenario is larger than 256 KiB")
		return
	}
	if err := checkScenario(body); err != nil {
		writeError(w, http.StatusUnprocessableEntity, "not a Rollout Lab scenario: "+err.Error())
		return
	}
	if !a.limiter.allow(clientOf(r), a.nowMs()) {
		w.Header().Set("Retry-After", "600")
		writeError(w, http.StatusTooManyRequests, "too many scenarios shared from this address; try again later")
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
	// Plain text (with nosniff, see withSecurityHeaders) so that no browser
	// ever treats a stored body as a document or script.
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	// Content never changes under an id.
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	io.WriteString(w, scenario)
}

// shortLink sends /s/{id} to the app, which fetches the scenario by id:
// /s/{id}#fragment → /?s={id}#fragment (browsers keep the fragment).
func (a apiHandler) shortLink(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !idPattern.MatchString(id) {
		writeError(w, http.StatusNotFound, "no such share link")
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	http.Redirect(w, r, "/?s="+id, http.StatusFound)
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
