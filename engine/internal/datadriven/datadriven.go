package datadriven

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite datadriven expected output in place")

// Arg is one command argument: `key`, `key=value` or `key=(v1,v2)`.
type Arg struct {
	Key    string
	Values []string
}

// TestData is one case.
type TestData struct {
	// Pos is "file:line" of the command line, for error messages.
	Pos string
	// Cmd is the first word of the command line.
	Cmd string
	// CmdArgs are the remaining words, parsed.
	CmdArgs []Arg
	// Input is the text between the command line and "----".
	Input string
	// Expected is the text after "----".
	Expected string
}

// HasArg reports whether the case has an argument named key.
func (d *TestData) HasArg(key string) bool {
	for _, a := range d.CmdArgs {
		if a.Key == key {
			return true
		}
	}
	return false
}

// Arg returns the first value of argument key, and whether it was present.
func (d *TestData) Arg(key string) (string, bool) {
	for _, a := range d.CmdArgs {
		if a.Key == key {
			if len(a.Values) == 0 {
				return "", true
			}
			return a.Values[0], true
		}
	}
	return "", false
}

// Fatalf fails the test with the case position prefixed.
func (d *TestData) Fatalf(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s: %s", d.Pos, fmt.Sprintf(format, args...))
}

// Walk runs RunFile for every file (not directory) in dir as a subtest named
// after the file, in sorted order.
func Walk(t *testing.T, dir string, fn func(t *testing.T, path string)) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(dir, n)
		t.Run(n, func(t *testing.T) { fn(t, p) })
	}
}

// RunFile runs every case of the file at path through handler, in order.
func RunFile(t *testing.T, path string, handler func(t *testing.T, d *TestData) string) {
	t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := parse(path, string(content))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, c := range cases {
		out.WriteString(c.prefix)
		if c.data.Cmd == "" {
			continue // trailing comments
		}
		got := handler(t, &c.data)
		if got != "" && !strings.HasSuffix(got, "\n") {
			got += "\n"
		}
		if *rewrite {
			out.WriteString(c.header)
			out.WriteString(formatOutput(got))
			continue
		}
		if got != c.data.Expected {
			t.Errorf("%s: %s\noutput mismatch\n--- want\n%s--- got\n%s", c.data.Pos, c.header, c.data.Expected, got)
		}
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func formatOutput(got string) string {
	if strings.Contains(got, "\n\n") {
		return "----\n----\n" + got + "----\n----\n"
	}
	return "----\n" + got
}

type parsedCase struct {
	prefix string // comments/blank lines before the command
	header string // command line plus input lines
	data   TestData
}

func parse(path, content string) ([]parsedCase, error) {
	lines := strings.SplitAfter(content, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var cases []parsedCase
	i := 0
	var prefix strings.Builder
	for i < len(lines) {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			prefix.WriteString(ensureNL(line))
			i++
			continue
		}
		c := parsedCase{prefix: prefix.String()}
		prefix.Reset()
		c.data.Pos = fmt.Sprintf("%s:%d", path, i+1)
		var header strings.Builder
		header.WriteString(ensureNL(line))
		cmd, args, err := parseCommand(trimmed)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.data.Pos, err)
		}
		c.data.Cmd, c.data.CmdArgs = cmd, args
		i++
		var input strings.Builder
		for i < len(lines) && strings.TrimRight(lines[i], "\r\n") != "----" {
			header.WriteString(ensureNL(lines[i]))
			input.WriteString(ensureNL(lines[i]))
			i++
		}
		if i >= len(lines) {
			return nil, fmt.Errorf("%s: missing ---- separator", c.data.Pos)
		}
		i++ // the separator
		c.header = header.String()
		c.data.Input = strings.TrimSuffix(input.String(), "\n")
		var expected strings.Builder
		if i < len(lines) && strings.TrimRight(lines[i], "\r\n") == "----" {
			// Block form: ends at "----\n----".
			i++
			for i < len(lines) {
				if strings.TrimRight(lines[i], "\r\n") == "----" && i+1 < len(lines) && strings.TrimRight(lines[i+1], "\r\n") == "----" {
					i += 2
					break
				}
				expected.WriteString(ensureNL(lines[i]))
				i++
			}
		} else {
			for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
				expected.WriteString(ensureNL(lines[i]))
				i++
			}
		}
		c.data.Expected = expected.String()
		cases = append(cases, c)
	}
	if prefix.Len() > 0 {
		cases = append(cases, parsedCase{prefix: prefix.String(), data: TestData{Cmd: ""}})
		// A trailing comment block is kept by emitting an empty pseudo-case.
		last := &cases[len(cases)-1]
		last.data.Pos = path + ":end"
	}
	return cases, nil
}

func ensureNL(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func parseCommand(line string) (string, []Arg, error) {
	fields, err := splitFields(line)
	if err != nil {
		return "", nil, err
	}
	cmd := fields[0]
	var args []Arg
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		a := Arg{Key: k}
		if ok {
			if strings.HasPrefix(v, "(") && strings.HasSuffix(v, ")") {
				inner := strings.TrimSuffix(strings.TrimPrefix(v, "("), ")")
				if inner != "" {
					a.Values = strings.Split(inner, ",")
				}
			} else {
				a.Values = []string{v}
			}
		}
		args = append(args, a)
	}
	return cmd, args, nil
}

// splitFields splits on spaces, keeping parenthesised groups together.
func splitFields(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	depth := 0
	for _, r := range line {
		switch {
		case r == '(':
			depth++
			cur.WriteRune(r)
		case r == ')':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced ')' in %q", line)
			}
			cur.WriteRune(r)
		case (r == ' ' || r == '\t') && depth == 0:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced '(' in %q", line)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out, nil
}
