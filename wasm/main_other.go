//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main exists so that `go build ./...` works natively; the bridge itself only
// makes sense inside a JavaScript host.
func main() {
	fmt.Fprintln(os.Stderr, "rolloutlab wasm bridge: build with GOOS=js GOARCH=wasm (see `make wasm`)")
	os.Exit(2)
}
