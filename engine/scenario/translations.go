package scenario

import (
	"strconv"
	"strings"
)

// Translations of a scenario's prose for the UI's languages: a
// metadata.translations entry holds the description in one language, an
// annotation's translations entry its title and text. Both are mappings
// from a language tag (zh-CN, de, pt-BR) to the translated fields. The
// simulation never reads them; the UI shows the text of its language and,
// without one, the untranslated text.
//
//	metadata:
//	  description: A rolling update of 10 replicas ...
//	  translations:
//	    zh-CN: {description: 10 个副本的滚动更新……}
//	spec:
//	  annotations:
//	    - at: {step: 99}
//	      title: Expectations
//	      translations:
//	        zh-CN: {title: 期望, text: ……}

// MaxTranslations is the most languages one translations mapping may hold.
const MaxTranslations = 16

// ScenarioText is the Scenario document's prose in one language.
type ScenarioText struct {
	// Description stands for metadata.description (not blank; unbounded,
	// as metadata.description is).
	Description string `json:"description"`
}

// AnnotationText is an annotation's prose in one language, bounded as the
// annotation's own title and text are (in characters, not bytes).
type AnnotationText struct {
	// Title stands for the annotation's title (not empty).
	Title string `json:"title"`
	// Text stands for the annotation's text; not empty when the
	// annotation has a text (a translation is shown whole).
	Text string `json:"text,omitempty"`
}

var (
	scenarioTextFields   = []string{"description"}
	annotationTextFields = []string{"title", "text"}
)

// isLanguageTag reports whether tag is one of the BCP 47 tags a
// translation may be keyed by: a language of 2 or 3 lower-case letters,
// then optionally a script (an upper-case and 3 lower-case letters), then
// optionally a region (2 upper-case letters or 3 digits): en, zh-CN,
// zh-Hant-TW, es-419.
func isLanguageTag(tag string) bool {
	parts := strings.Split(tag, "-")
	if len(parts) > 3 || !allBytes(parts[0], 2, 3, isLower) {
		return false
	}
	rest := parts[1:]
	if len(rest) > 0 && len(rest[0]) == 4 {
		if !allBytes(rest[0][:1], 1, 1, isUpper) || !allBytes(rest[0][1:], 3, 3, isLower) {
			return false
		}
		rest = rest[1:]
	}
	switch len(rest) {
	case 0:
		return true
	case 1:
		return allBytes(rest[0], 2, 2, isUpper) || allBytes(rest[0], 3, 3, isDigit)
	}
	return false
}

// allBytes reports whether s has between lo and hi bytes, each satisfying ok.
func allBytes(s string, lo, hi int, ok func(byte) bool) bool {
	if len(s) < lo || len(s) > hi {
		return false
	}
	for i := range len(s) {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }
func isUpper(b byte) bool { return 'A' <= b && b <= 'Z' }
func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// decodeTranslations reads a translations mapping at path, calling each for
// every language with the mapping of its fields (known: fields). It reports
// a tag that is not a language tag, and more than MaxTranslations of them.
func (r *docReader) decodeTranslations(n *node, path string, fields []string, each func(lang string, m map[string]field, at *node, path string)) {
	m, ok := r.mapping(n, path, nil)
	if !ok {
		return
	}
	if len(m) > MaxTranslations {
		r.errorf(resolve(n), path, "too many languages: the limit is "+strconv.Itoa(MaxTranslations))
		return
	}
	for _, lang := range sortedKeys(m) {
		f := m[lang]
		p := join(path, lang)
		if !isLanguageTag(lang) {
			r.errorf(f.key, p, strconv.Quote(lang)+" is not a language tag: expected one like zh-CN, de or pt-BR")
			continue
		}
		if fm, ok := r.mapping(f.value, p, fields); ok {
			each(lang, fm, resolve(f.value), p)
		}
	}
}

// decodeScenarioTranslations reads metadata.translations.
func (r *docReader) decodeScenarioTranslations(n *node, s *Scenario) {
	r.decodeTranslations(n, "metadata.translations", scenarioTextFields, func(lang string, m map[string]field, at *node, path string) {
		f, ok := m["description"]
		if !ok {
			r.errorf(at, join(path, "description"), "required field is missing")
			return
		}
		v, ok := r.str(f.value, join(path, "description"))
		if !ok {
			return
		}
		if strings.TrimSpace(v) == "" {
			r.errorf(resolve(f.value), join(path, "description"), "must not be empty")
			return
		}
		if s.Translations == nil {
			s.Translations = map[string]ScenarioText{}
		}
		s.Translations[lang] = ScenarioText{Description: v}
	})
}

// decodeAnnotationTranslations reads an annotation's translations.
func (r *docReader) decodeAnnotationTranslations(n *node, path string, a *Annotation) {
	r.decodeTranslations(n, path, annotationTextFields, func(lang string, m map[string]field, at *node, path string) {
		var t AnnotationText
		if f, ok := m["title"]; !ok {
			r.errorf(at, join(path, "title"), "required field is missing")
			return
		} else if t.Title, ok = r.annotationTitle(f, join(path, "title")); !ok {
			return
		}
		if f, ok := m["text"]; ok {
			var ok bool
			if t.Text, ok = r.annotationText(f, join(path, "text")); !ok {
				return
			}
		}
		if a.Text != "" && strings.TrimSpace(t.Text) == "" {
			// The UI shows a translation whole: without a text it would
			// show the note's title and no text.
			r.errorf(at, join(path, "text"), "required field is missing or blank: the note has a text, so its translation needs one")
			return
		}
		if a.Translations == nil {
			a.Translations = map[string]AnnotationText{}
		}
		a.Translations[lang] = t
	})
}
