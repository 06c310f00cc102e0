//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main exists so that `go build ./...` works natively; the Worker only runs
// under wrangler (see scripts/test-worker.sh).
func main() {
	fmt.Fprintln(os.Stderr, "rolloutlab worker: build with GOOS=js GOARCH=wasm (see scripts/test-worker.sh)")
	os.Exit(2)
}
