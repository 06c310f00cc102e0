//go:build js && wasm

package main

import (
	"fmt"
	"os"

	"github.com/hack-pad/safejs"
)

func main() {
	if err := install(safejs.Global(), methods()); err != nil {
		fmt.Fprintln(os.Stderr, "rolloutlab: cannot install the JavaScript bridge:", err)
		os.Exit(1)
	}
	// Handlers run on JavaScript's calls; main must never return.
	select {}
}

// install sets global.rolloutlab = {call, ready: true} and then invokes
// global.__rolloutlabOnReady() when the page defined it.
func install(global safejs.Value, a api) error {
	object, err := global.Get("Object")
	if err != nil {
		return err
	}
	bridge, err := object.New()
	if err != nil {
		return err
	}
	call, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		method, ok := stringArg(args, 0)
		argsJSON, argsOK := stringArg(args, 1)
		if !ok || (!argsOK && len(args) > 1 && args[1].Type() != safejs.TypeUndefined) {
			return failure(errBadCall)
		}
		return a.call(method, argsJSON)
	})
	if err != nil {
		return err
	}
	if err := bridge.Set("call", call.Value()); err != nil {
		return err
	}
	if err := bridge.Set("ready", true); err != nil {
		return err
	}
	if err := global.Set("rolloutlab", bridge); err != nil {
		return err
	}
	onReady, err := global.Get("__rolloutlabOnReady")
	if err != nil || onReady.Type() != safejs.TypeFunction {
		return err
	}
	_, err = onReady.Invoke()
	return err
}

// stringArg returns args[i] and true when it is a JavaScript string.
func stringArg(args []safejs.Value, i int) (string, bool) {
	if i >= len(args) || args[i].Type() != safejs.TypeString {
		return "", false
	}
	s, err := args[i].String()
	return s, err == nil
}
