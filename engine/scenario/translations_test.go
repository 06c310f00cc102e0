package scenario

import (
	"reflect"
	"strings"
	"testing"
)

func TestTranslationsParse(t *testing.T) {
	src := `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata:
  name: a
  description: Ten replicas roll out.
  translations:
    zh-CN: {description: 十个副本滚动更新。}
    pt-BR:
      description: Dez réplicas.
spec:
  annotations:
    - at: {step: 3}
      title: Expectations
      text: Until the informer has seen them.
      translations:
        zh-CN:
          title: 期望
          text: 在 informer 看到它们之前。
        de: {title: Erwartungen, text: Bis der Informer sie gesehen hat.}
    - at: {step: 4}
      title: Plain
`
	s, err := Parse("a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]ScenarioText{"zh-CN": {Description: "十个副本滚动更新。"}, "pt-BR": {Description: "Dez réplicas."}}; !reflect.DeepEqual(s.Translations, want) {
		t.Errorf("metadata translations = %+v, want %+v", s.Translations, want)
	}
	if s.Description != "Ten replicas roll out." {
		t.Errorf("description = %q", s.Description)
	}
	want := []Annotation{
		{At: AnnotationAt{Step: 3}, Title: "Expectations", Text: "Until the informer has seen them.", Line: 12, Translations: map[string]AnnotationText{
			"zh-CN": {Title: "期望", Text: "在 informer 看到它们之前。"},
			"de":    {Title: "Erwartungen", Text: "Bis der Informer sie gesehen hat."},
		}},
		{At: AnnotationAt{Step: 4}, Title: "Plain", Line: 20},
	}
	if !reflect.DeepEqual(s.Annotations, want) {
		t.Fatalf("annotations = %+v\nwant %+v", s.Annotations, want)
	}
}

func TestTranslationsErrors(t *testing.T) {
	meta := func(tr string) string {
		return "apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: a\n  translations:\n" + tr
	}
	ann := func(tr string) string {
		return annotatedHead + "    - at: {step: 2}\n      title: x\n      translations:\n" + tr
	}
	many := ""
	for _, l := range strings.Fields("aa ab ac ad ae af ag ah ai aj ak al am an ao ap aq") {
		many += "        " + l + ": {title: t}\n"
	}
	long := strings.Repeat("x", MaxAnnotationTitle+1)
	for _, tc := range []struct{ src, want string }{
		{meta("    zh_CN: {description: x}\n"), `line 6: metadata.translations.zh_CN: "zh_CN" is not a language tag: expected one like zh-CN, de or pt-BR`},
		{meta("    zh-CN: {}\n"), "line 6: metadata.translations.zh-CN.description: required field is missing"},
		{meta("    zh-CN: {description: ' '}\n"), "line 6: metadata.translations.zh-CN.description: must not be empty"},
		{meta("    zh-CN: {descripton: x}\n"), "metadata.translations.zh-CN.descripton"},
		{meta("    - zh-CN\n"), "line 6: metadata.translations: expected a mapping"},
		{ann("        zh-CN: {text: y}\n"), "line 9: spec.annotations[0].translations.zh-CN.title: required field is missing"},
		{ann("        zh-CN: {title: ''}\n"), "line 9: spec.annotations[0].translations.zh-CN.title: must be between 1 and 200 characters"},
		{ann("        zh-CN: {title: " + long + "}\n"), "spec.annotations[0].translations.zh-CN.title: must be between 1 and 200 characters"},
		{ann("        zh-CN: {title: t, text: " + strings.Repeat("y", MaxAnnotationText+1) + "}\n"), "spec.annotations[0].translations.zh-CN.text: too long: the limit is 2000 characters"},
		{ann("        Chinese: {title: t}\n"), `spec.annotations[0].translations.Chinese: "Chinese" is not a language tag`},
		{ann(many), "line 9: spec.annotations[0].translations: too many languages: the limit is 16"},
		{ann("        zh-CN: {title: " + strings.Repeat("期", MaxAnnotationTitle+1) + "}\n"), "spec.annotations[0].translations.zh-CN.title: must be between 1 and 200 characters"},
		{annotatedHead + "    - at: {step: 2}\n      title: x\n      text: y\n      translations:\n        zh-CN: {title: t}\n", "line 10: spec.annotations[0].translations.zh-CN.text: required field is missing or blank: the note has a text, so its translation needs one"},
		{annotatedHead + "    - at: {step: 2}\n      title: x\n      text: y\n      translations:\n        zh-CN: {title: t, text: ' '}\n", "line 10: spec.annotations[0].translations.zh-CN.text: required field is missing or blank"},
	} {
		_, err := Parse("a.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.src, err, tc.want)
		}
	}
}

// TestTranslationLimitsCountCharacters: a title of 200 Chinese characters
// (600 bytes) and a text of 2,000 are within the limits, as 200 and 2,000
// ASCII ones are.
func TestTranslationLimitsCountCharacters(t *testing.T) {
	src := annotatedHead + "    - at: {step: 2}\n      title: " + strings.Repeat("期", MaxAnnotationTitle) + "\n      text: " + strings.Repeat("望", MaxAnnotationText) +
		"\n      translations:\n        zh-CN: {title: " + strings.Repeat("期", MaxAnnotationTitle) + ", text: " + strings.Repeat("望", MaxAnnotationText) + "}\n"
	s, err := Parse("a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Annotations[0].Translations["zh-CN"].Title; got != strings.Repeat("期", MaxAnnotationTitle) {
		t.Errorf("title = %q", got)
	}
}

func TestIsLanguageTag(t *testing.T) {
	for _, tag := range []string{"en", "zh-CN", "zh-Hant-TW", "es-419", "fil", "zh-Hans", "pt-BR"} {
		if !isLanguageTag(tag) {
			t.Errorf("%q: not a language tag, want one", tag)
		}
	}
	for _, tag := range []string{"", "e", "english", "zh_CN", "zh-cn", "ZH-CN", "zh-", "-CN", "zh-CN-x", "zh-Hant-TW-1", "zh-hant-TW", "zh-HANT", "es-41", "es-4190", "zh-CN-TW"} {
		if isLanguageTag(tag) {
			t.Errorf("%q: a language tag, want not", tag)
		}
	}
}
