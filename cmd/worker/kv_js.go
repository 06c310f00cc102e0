//go:build js && wasm

package main

import (
	"github.com/syumai/workers/cloudflare/kv"
)

// kvBinding is the KV namespace binding name declared in wrangler.toml.
const kvBinding = "SCENARIOS"

// kvStore is the store backed by Workers KV.
type kvStore struct {
	// ns is the request environment's SCENARIOS namespace.
	ns *kv.Namespace
}

// openKVStore binds the current request's KV namespace.
func openKVStore() (store, error) {
	ns, err := kv.NewNamespace(kvBinding)
	if err != nil {
		return nil, err
	}
	return kvStore{ns: ns}, nil
}

func (s kvStore) Get(id string) (string, error) {
	raw, err := s.ns.GetString(id, nil)
	if err != nil {
		return "", err
	}
	// A missing key reads as JavaScript null, which the binding renders as
	// a string; only a well-formed record is a hit.
	scenario, ok := decodeRecord(raw)
	if !ok {
		return "", errNotFound
	}
	return scenario, nil
}

func (s kvStore) Put(id, scenario string) error {
	return s.ns.PutString(id, encodeRecord(scenario), nil)
}
