package session

import (
	"strconv"
	"unicode/utf8"
)

// maxEchoBytes bounds how much of a user's input an error message repeats.
const maxEchoBytes = 200

// clipEcho returns s for echoing in a message: whole when short, else its
// first maxEchoBytes bytes (on a rune boundary) and how much was left out,
// so that a pasted 100 KB command does not come back in full.
func clipEcho(s string) string {
	if len(s) <= maxEchoBytes {
		return s
	}
	cut := maxEchoBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "... (" + strconv.Itoa(len(s)-cut) + " more bytes)"
}
