package scenario

import (
	"reflect"
	"strings"
	"testing"
)

const annotatedHead = `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: a}
spec:
  annotations:
`

func TestAnnotationsParse(t *testing.T) {
	src := annotatedHead + `    - at: {step: 3}
      title: Three
    - at: {record: NewRSMath}
      title: Sized
      text: maxTotalPods = 13
    - at: {record: OldScaleDownMath, nth: 2}
      title: Second scale-down
`
	s, err := Parse("a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Annotation{
		{At: AnnotationAt{Step: 3}, Title: "Three", Line: 6},
		{At: AnnotationAt{Record: "NewRSMath", Nth: 1}, Title: "Sized", Text: "maxTotalPods = 13", Line: 8},
		{At: AnnotationAt{Record: "OldScaleDownMath", Nth: 2}, Title: "Second scale-down", Line: 11},
	}
	if !reflect.DeepEqual(s.Annotations, want) {
		t.Fatalf("annotations = %+v\nwant %+v", s.Annotations, want)
	}
}

func TestAnnotationsErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"    - at: {step: 3}\n", "line 6: spec.annotations[0].title: required field is missing"},
		{"    - title: x\n", "line 6: spec.annotations[0].at: required field is missing"},
		{"    - {at: {step: 1, record: NewRSMath}, title: x}\n", "line 6: spec.annotations[0].at: expected exactly one of step and record"},
		{"    - {at: {record: NewRSMaths}, title: x}\n", `spec.annotations[0].at.record: unknown record type "NewRSMaths" (did you mean "NewRSMath"?)`},
		{"    - {at: {step: 0}, title: x}\n", "spec.annotations[0].at.step: invalid value 0"},
		{"    - {at: {step: 2, nth: 1}, title: x}\n", "spec.annotations[0].at.nth: nth is only used with record"},
		{"    - {at: {step: 2}, title: x, txt: y}\n", "spec.annotations[0].txt"},
		{"    - {at: {step: 2}, title: ' '}\n", "spec.annotations[0].title: must be between 1 and 200 characters"},
	} {
		_, err := Parse("a.yaml", []byte(annotatedHead+tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.body, err, tc.want)
		}
	}
}
