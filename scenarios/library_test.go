package scenarios_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/rolloutlab/rolloutlab/engine/scenario"
	"github.com/rolloutlab/rolloutlab/scenarios"
)

// TestLibraryIsTranslated: the UI speaks English and Simplified Chinese, so
// every library scenario carries its description, and every presenter note
// its title and text, in zh-CN too (metadata.translations, an annotation's
// translations); a note added in English only fails here.
func TestLibraryIsTranslated(t *testing.T) {
	for _, id := range scenarios.IDs() {
		src, _ := scenarios.Source(id)
		s, err := scenario.Parse(id+".yaml", src)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		zh, ok := s.Translations["zh-CN"]
		if !ok || !hasHan(zh.Description) {
			t.Errorf("%s: metadata.translations.zh-CN.description is missing or not Chinese: %q", id, zh.Description)
		}
		for i, a := range s.Annotations {
			tr, ok := a.Translations["zh-CN"]
			if !ok || !hasHan(tr.Title) || (a.Text != "") != (tr.Text != "") {
				t.Errorf("%s: spec.annotations[%d] (line %d, %q) has no complete zh-CN translation: %+v", id, i, a.Line, a.Title, tr)
			}
		}
	}
}

// hasHan reports whether s holds a Chinese character.
func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}
