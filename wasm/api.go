package main

import (
	"encoding/json"

	"github.com/rolloutlab/rolloutlab/engine"
)

// handler is one bridge method: it receives the raw JSON arguments ("null"
// when the caller passed none) and returns a value that encoding/json can
// marshal, or an error. Errors may implement Line() int and/or Field() string
// to point the UI at the offending input; see callError.
type handler func(args json.RawMessage) (any, error)

// methods is the bridge's whole API, one line per method. Add new methods
// here; keep their logic in engine/.
func methods() api {
	a := api{
		"version": version,
		"idle":    idle,
	}
	for name, h := range (&bridge{}).methods() {
		a[name] = h
	}
	return a
}

// versionInfo is the result of the "version" method.
type versionInfo struct {
	// Engine is Rollout Lab's engine release, e.g. "0.1.0".
	Engine string `json:"engine"`
	// Upstream is the Kubernetes release the controllers reproduce, e.g. "v1.36.3".
	Upstream string `json:"upstream"`
}

// version reports the engine and upstream versions. It takes no arguments.
func version(json.RawMessage) (any, error) {
	return versionInfo{Engine: engine.Version, Upstream: engine.UpstreamVersion}, nil
}
