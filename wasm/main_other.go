//go:build !(js && wasm)

package main

import (
	"fmt"
	"io"
	"os"
)

// main answers one bridge call natively, exactly as the browser's bridge
// would: `go run ./wasm METHOD < args.json` prints the JSON envelope. The
// web build uses it to prerender the default scenario's step 0
// (web/vite.config.ts), so the page can show that step before the wasm
// arrives. Without a method it explains that the bridge is a wasm program.
func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "rolloutlab wasm bridge: build with GOOS=js GOARCH=wasm (see `make wasm`),")
		fmt.Fprintln(os.Stderr, "or answer one call natively: go run ./wasm METHOD < args.json")
		os.Exit(2)
	}
	args, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rolloutlab wasm bridge: reading arguments:", err)
		os.Exit(1)
	}
	fmt.Println(methods().call(os.Args[1], string(args)))
}
