//go:build js && wasm

package main

import "github.com/syumai/workers"

func main() {
	workers.Serve(newAPI(openKVStore, isolateTable()))
}
