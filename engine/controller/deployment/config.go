package deployment

// Config holds the controller's tunables. It is empty today; it exists so the
// simulator's call shape does not change when knobs are added.
type Config struct{}

// DefaultConfig returns the v1.36.3 defaults.
func DefaultConfig() Config { return Config{} }
