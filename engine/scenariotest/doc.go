// Package scenariotest holds the end-to-end tests of the engine: golden
// traces of every scenario in the library, the "must show" assertions of the
// ReplicaSet and Deployment controllers, invariant checks after every step,
// determinism (native and js/wasm against the same goldens) and randomized
// property and fuzz tests.
//
// Contract: the package only drives the engine through session.Session (the
// same surface the CLI and the browser use) and reads state through the API
// server, kubectl views and the trace. It changes nothing in the engine. The
// only non-test file is run.go: a bounded runner that settles a session
// while its timeline has actions pending and checks invariants after every
// step.
package scenariotest
