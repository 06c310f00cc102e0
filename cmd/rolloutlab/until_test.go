package main

import (
	"errors"
	"flag"
	"io"
	"slices"
	"testing"
	"time"
)

// The examples in parseUntil's doc comment, and their String round trip.
func TestParseUntil(t *testing.T) {
	tests := []struct {
		in   string
		want until
		back string
	}{
		{"settle", until{kind: untilSettle}, "settle"},
		{"90s", until{kind: untilTime, at: 90 * time.Second}, "1m30s"},
		{"1m30s", until{kind: untilTime, at: 90 * time.Second}, "1m30s"},
		{"0s", until{kind: untilTime}, "0s"},
		{"step=12", until{kind: untilStep, step: 12}, "step=12"},
		{"step=0", until{kind: untilStep}, "step=0"},
	}
	for _, tc := range tests {
		got, err := parseUntil(tc.in)
		if err != nil || got != tc.want || got.String() != tc.back {
			t.Errorf("parseUntil(%q) = %+v (%q), %v; want %+v (%q)", tc.in, got, got.String(), err, tc.want, tc.back)
		}
	}
	for _, bad := range []string{"-5s", "step=x", "step=-1", "soon", "", "step=", "90"} {
		if _, err := parseUntil(bad); !errors.Is(err, errBadUntil) {
			t.Errorf("parseUntil(%q) error %v, want errBadUntil", bad, err)
		}
	}
}

func TestEnumStrings(t *testing.T) {
	checks := map[string]string{
		untilSettle.String(): "settle", untilTime.String(): "time", untilStep.String(): "step", untilKind(9).String(): "untilKind(9)",
		formatText.String(): "text", formatJSON.String(): "json", formatState.String(): "state", outputFormat(9).String(): "outputFormat(9)",
		tablesActions.String(): "actions", tablesEnd.String(): "end", tablesNone.String(): "none", tablesMode(9).String(): "tablesMode(9)",
	}
	for got, want := range checks {
		if got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
	for _, n := range formatNames {
		if f, ok := parseFormat(n.name); !ok || f != n.format {
			t.Errorf("parseFormat(%q) = %v, %v", n.name, f, ok)
		}
	}
	for _, n := range tablesNames {
		if m, ok := parseTables(n.name); !ok || m != n.mode {
			t.Errorf("parseTables(%q) = %v, %v", n.name, m, ok)
		}
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args     []string
		wantPos  []string
		wantSeed string
	}{
		{[]string{"f.yaml", "--seed", "3"}, []string{"f.yaml"}, "3"},
		{[]string{"--seed", "3", "f.yaml"}, []string{"f.yaml"}, "3"},
		{[]string{"a", "--seed=4", "b"}, []string{"a", "b"}, "4"},
		{[]string{"-", "--seed", "5"}, []string{"-"}, "5"},
		{[]string{"--seed", "6", "--", "--not-a-flag", "x"}, []string{"--not-a-flag", "x"}, "6"},
		{nil, nil, ""},
	}
	for _, tc := range tests {
		e := env{stdout: io.Discard, stderr: io.Discard}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		seed := fs.String("seed", "", "")
		pos, code, ok := parseArgs(e, fs, tc.args)
		if !ok || code != exitOK || !slices.Equal(pos, tc.wantPos) || *seed != tc.wantSeed {
			t.Errorf("parseArgs(%q) = %q seed %q (%v %v), want %q seed %q", tc.args, pos, *seed, code, ok, tc.wantPos, tc.wantSeed)
		}
	}
}
