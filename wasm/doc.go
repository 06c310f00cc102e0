// Command wasm is the browser's door into the Rollout Lab engine. Built with
// GOOS=js GOARCH=wasm it becomes web/public/rolloutlab.wasm.
//
// Its one job is marshalling: it registers a global JavaScript object
//
//	globalThis.rolloutlab = { call(method, argsJSON) -> resultJSON, ready: true }
//
// and turns every call into a Go handler call (see api.go) and back. Every
// result is a JSON string of one of two shapes:
//
//	{"ok":true,"value":<handler result>}
//	{"ok":false,"error":{"message":"...","line":0,"field":"","panic":false}}
//
// Contract:
//   - The bridge holds no simulation logic; handlers delegate to engine/.
//   - A Go panic never kills the page: it is recovered at the boundary and
//     returned as an error with "panic":true. The Go program keeps running.
//   - JavaScript is touched only through github.com/hack-pad/safejs, and only
//     in main.go (build tag js && wasm). Everything else is plain Go, tested
//     natively and under js/wasm alike.
//   - Readiness: once the object is installed, rolloutlab.ready is true and
//     globalThis.__rolloutlabOnReady (if the page set one) is invoked.
package main
