package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// shutdownGrace bounds how long in-flight requests may finish after a signal.
const shutdownGrace = 5 * time.Second

// runServe serves the built web app until the context is cancelled.
func runServe(e env, args []string) exitCode {
	fs := newFlagSet(e, "serve", "serve [--addr host:port] [--dir path]")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	dir := fs.String("dir", "web/dist", "directory holding the built app (run `make build` first)")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab serve: %s has no index.html (run `make build` first): %v\n", *dir, err)
		return exitRuntime
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab serve: %v\n", err)
		return exitRuntime
	}
	if err := serve(e, ln, newStaticHandler(*dir)); err != nil {
		fmt.Fprintf(e.stderr, "rolloutlab serve: %v\n", err)
		return exitRuntime
	}
	return exitOK
}

// serve announces the URL and serves on ln until e.ctx is done.
func serve(e env, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stdout, "Rollout Lab is running at %s\n", urlOf(ln.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-e.ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// urlOf returns the browsable URL of a listening address, e.g.
// 127.0.0.1:8080 → http://127.0.0.1:8080/ and [::]:8080 → http://localhost:8080/.
func urlOf(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String() + "/"
	}
	host := tcp.IP.String()
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port)) + "/"
}
