package session

import (
	"strings"
	"testing"
)

func TestClipEcho(t *testing.T) {
	if got := clipEcho("get pods"); got != "get pods" {
		t.Errorf("short input changed: %q", got)
	}
	long := strings.Repeat("x", 100<<10)
	if got, want := clipEcho(long), strings.Repeat("x", 200)+"... (102200 more bytes)"; got != want {
		t.Errorf("clipEcho(100 KB) = %q..., want %q...", got[:40], want[:40])
	}
	// A multi-byte rune across the cut is not split.
	s := strings.Repeat("a", 199) + "é" + strings.Repeat("b", 10)
	if got := clipEcho(s); !strings.HasPrefix(got, strings.Repeat("a", 199)+"...") {
		t.Errorf("cut inside a rune: %q", got[190:])
	}
}

// A 100 KB kubectl command is not echoed in full in the error.
func TestKubectlErrorClipsTheCommand(t *testing.T) {
	s, err := Load("tiny.yaml", []byte(tinyDeployment), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Kubectl("get " + strings.Repeat("x", 100<<10))
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "more bytes)") {
		t.Fatalf("error is %d bytes: %.300s", len(err.Error()), err)
	}
}

// Numbers of a user action are read exactly: an out-of-range revision is
// echoed as typed (not as a rounded float), and a large valid one is not
// rounded on its way to the parser.
func TestUserActionNumbersAreExact(t *testing.T) {
	s, err := Load("tiny.yaml", []byte(tinyDeployment), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.ParseUserAction([]byte(`{"type":"undo","target":"deploy/web","toRevision":9223372036854775808}`))
	if err == nil || !strings.Contains(err.Error(), "invalid value 9223372036854775808:") {
		t.Fatalf("err = %v, want the value echoed as typed", err)
	}
	a, err := s.ParseUserAction([]byte(`{"type":"undo","target":"deploy/web","toRevision":12345678901234567}`))
	if err != nil || a.ToRevision != 12345678901234567 {
		t.Fatalf("toRevision %d (err %v), want 12345678901234567", a.ToRevision, err)
	}
	if _, err := s.ParseUserAction([]byte(`{"type":"scale"} {}`)); err != ErrBadAction {
		t.Fatalf("trailing data: err = %v", err)
	}
}
