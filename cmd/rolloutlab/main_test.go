package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rolloutlab/rolloutlab/engine"
)

// syncBuffer is a bytes.Buffer safe for a server goroutine and a test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func runCLI(ctx context.Context, args ...string) (code exitCode, stdout, stderr string) {
	var out, errOut syncBuffer
	code = dispatch(env{ctx: ctx, stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   exitCode
		wantStdout string // substring
		wantStderr string // substring
	}{
		{"no command", nil, exitUsage, "", "Usage:"},
		{"unknown command", []string{"frobnicate"}, exitUsage, "", `unknown command "frobnicate"`},
		{"--help", []string{"--help"}, exitOK, "Commands:", ""},
		{"help", []string{"help"}, exitOK, "serve", ""},
		{"help serve", []string{"help", "serve"}, exitOK, "-addr", ""},
		{"help unknown", []string{"help", "nope"}, exitUsage, "", `unknown command "nope"`},
		{"help too many", []string{"help", "a", "b"}, exitUsage, "", "Usage: rolloutlab help"},
		{"version", []string{"version"}, exitOK, "rolloutlab " + engine.Version + " (Kubernetes " + engine.UpstreamVersion + " controllers)\n", ""},
		{"version --help", []string{"version", "--help"}, exitOK, "Usage: rolloutlab version", ""},
		{"version extra arg", []string{"version", "x"}, exitUsage, "", `unexpected argument "x"`},
		{"serve --help", []string{"serve", "--help"}, exitOK, "-dir", ""},
		{"serve bad flag", []string{"serve", "--port", "1"}, exitUsage, "", "flag provided but not defined"},
		{"serve missing dir", []string{"serve", "--dir", "/nonexistent/dist"}, exitRuntime, "", "make build"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t.Context(), tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit code = %v (%d), want %v", code, code, tc.wantCode)
			}
			if !strings.Contains(stdout, tc.wantStdout) {
				t.Errorf("stdout %q does not contain %q", stdout, tc.wantStdout)
			}
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr %q does not contain %q", stderr, tc.wantStderr)
			}
		})
	}
}

func TestExitCodeString(t *testing.T) {
	for code, want := range map[exitCode]string{exitOK: "ok", exitRuntime: "runtime error", exitUsage: "usage error", 7: "exitCode(7)"} {
		if got := code.String(); got != want {
			t.Errorf("exitCode(%d).String() = %q, want %q", int(code), got, want)
		}
	}
}

// TestServe starts the real command on a free port, fetches the app and the
// wasm with br, then stops it through the context as a signal would.
func TestServe(t *testing.T) {
	dir := site(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan exitCode, 1)
	go func() {
		done <- dispatch(env{ctx: ctx, stdout: &out, stderr: &errOut}, []string{"serve", "--addr", "127.0.0.1:0", "--dir", dir})
	}()

	var url string
	for deadline := time.Now().Add(5 * time.Second); url == ""; {
		if s, ok := strings.CutPrefix(out.String(), "Rollout Lab is running at "); ok {
			url = strings.TrimSpace(s)
		} else if time.Now().After(deadline) {
			t.Fatalf("no URL announced; stdout %q stderr %q", out.String(), errOut.String())
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Fatalf("announced URL %q, want http://127.0.0.1:<port>/", url)
	}

	req, _ := http.NewRequest("GET", url+"rolloutlab.wasm", nil)
	req.Header.Set("Accept-Encoding", "br")
	res, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/wasm" || res.Header.Get("Content-Encoding") != "br" {
		t.Errorf("wasm: status %d type %q encoding %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"))
	}

	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("serve exited with %v after shutdown; stderr %q", code, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after cancellation")
	}
}

func TestServeAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, _, stderr := runCLI(t.Context(), "serve", "--addr", ln.Addr().String(), "--dir", site(t))
	if code != exitRuntime || !strings.Contains(stderr, "address already in use") {
		t.Errorf("code %v stderr %q, want runtime error about the address", code, stderr)
	}
}

func TestURLOf(t *testing.T) {
	tests := []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "http://127.0.0.1:8080/"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "http://localhost:8080/"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 80}, "http://localhost:80/"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 9000}, "http://[::1]:9000/"},
	}
	for _, tc := range tests {
		if got := urlOf(tc.addr); got != tc.want {
			t.Errorf("urlOf(%v) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}
