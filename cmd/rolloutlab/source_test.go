package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file over the 1 MiB limit is reported with its real size (not the
// limit + 1 bytes read to detect it); a pipe, whose size is unknown, as over
// the limit. Both check and run refuse it with exit code 1.
func TestTooLargeFileReportsItsSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(20 << 20); err != nil { // 20 MiB, sparse
		t.Fatal(err)
	}
	f.Close()
	for _, cmd := range []string{"check", "run"} {
		code, _, stderr := runCLI(t.Context(), cmd, path)
		want := "rolloutlab " + cmd + ": " + path + ": file is 20971520 bytes; the limit is 1 MiB (1048576 bytes)\n"
		if code != exitRuntime || stderr != want {
			t.Errorf("%s: exit %v stderr %q, want 1 and %q", cmd, code, stderr, want)
		}
	}
	code, _, stderr := runWithStdin(t.Context(), strings.Repeat("#", 2<<20), "check", "-")
	if want := "rolloutlab check: <stdin>: file is larger than the limit of 1 MiB (1048576 bytes)\n"; code != exitRuntime || stderr != want {
		t.Errorf("stdin: exit %v stderr %q, want %q", code, stderr, want)
	}
}
