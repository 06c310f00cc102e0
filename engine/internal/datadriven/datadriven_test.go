package datadriven

import (
	"strings"
	"testing"
)

func TestExample(t *testing.T) {
	RunFile(t, "testdata/example", func(t *testing.T, d *TestData) string {
		a, _ := d.Arg("a")
		var b string
		for _, arg := range d.CmdArgs {
			if arg.Key == "b" {
				b = strings.Join(arg.Values, ",")
			}
		}
		out := d.Cmd + ": " + d.Input
		if a != "" {
			out += " a=" + a + " b=" + b
		}
		if d.HasArg("flag") {
			out += " flag=true"
		}
		return out
	})
}

func TestParseErrors(t *testing.T) {
	if _, err := parse("x", "cmd a=(1\n----\n"); err == nil {
		t.Error("unbalanced parenthesis accepted")
	}
	if _, err := parse("x", "cmd\ninput\n"); err == nil {
		t.Error("missing separator accepted")
	}
}

func TestMismatchIsReported(t *testing.T) {
	cases, err := parse("x", "echo\n----\nwrong\n")
	if err != nil || len(cases) != 1 || cases[0].data.Expected != "wrong\n" {
		t.Fatalf("parse: %v %+v", err, cases)
	}
}
