package engine

// Version is the engine's release version, shown by the CLI and the UI.
const Version = "0.1.0"

// UpstreamVersion is the Kubernetes release whose controllers the engine
// reproduces.
const UpstreamVersion = "v1.36.3"
