package main

import "errors"

// errNotFound is returned by a store when no scenario has the id.
var errNotFound = errors.New("scenario not found")

// store keeps shared scenarios by id.
type store interface {
	// Get returns the scenario stored under id, or errNotFound.
	Get(id string) (string, error)
	// Put stores scenario under id, replacing any previous value (which, ids
	// being content hashes, is the same text).
	Put(id, scenario string) error
}

// recordPrefix starts every stored value. It versions the record format and
// lets a reader tell a real record from the runtime's rendering of a missing
// key, which the KV binding does not distinguish from a string.
const recordPrefix = "rolloutlab-scenario/v1\n"

// encodeRecord wraps a scenario for storage.
func encodeRecord(scenario string) string { return recordPrefix + scenario }

// decodeRecord unwraps a stored value; ok is false when raw is not a record.
func decodeRecord(raw string) (scenario string, ok bool) {
	if len(raw) < len(recordPrefix) || raw[:len(recordPrefix)] != recordPrefix {
		return "", false
	}
	return raw[len(recordPrefix):], true
}
