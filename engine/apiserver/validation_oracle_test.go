package apiserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// oracleValidationCase is one entry of testdata/validation/expected.json
// (copied from the project oracle: what the real v1.36.3 API server answers).
type oracleValidationCase struct {
	File      string  `json:"file"`
	Kind      string  `json:"kind"`
	Operation string  `json:"operation"`
	Message   *string `json:"message"`
	Errors    []struct {
		Type   string `json:"type"`
		Field  string `json:"field"`
		Detail string `json:"detail"`
	} `json:"errors"`
}

func TestValidationOracle(t *testing.T) {
	raw, err := os.ReadFile("testdata/validation/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []oracleValidationCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 28 {
		t.Fatalf("only %d oracle cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.File, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("testdata/validation/inputs", c.File))
			if err != nil {
				t.Fatal(err)
			}
			docs := strings.Split(string(body), "\n---\n")
			env := newTestEnv()
			var gotErr error
			switch c.Operation {
			case "create":
				_, gotErr = env.apply("kubectl", "create", docs[0])
			case "update":
				if _, err := env.apply("kubectl", "create", docs[0]); err != nil {
					t.Fatalf("creating the stored object: %v", err)
				}
				_, gotErr = env.apply("kubectl", "update", docs[1])
			default:
				t.Fatalf("unknown operation %q", c.Operation)
			}
			if c.Message == nil {
				if gotErr != nil {
					t.Fatalf("want success, got %v", gotErr)
				}
				return
			}
			if gotErr == nil {
				t.Fatalf("want error %q, got success", *c.Message)
			}
			if !apierrors.IsInvalid(gotErr) {
				t.Fatalf("want Invalid, got %T %v", gotErr, gotErr)
			}
			if gotErr.Error() != *c.Message {
				t.Fatalf("message\n got: %s\nwant: %s", gotErr.Error(), *c.Message)
			}
			causes := gotErr.(apierrors.APIStatus).Status().Details.Causes
			if len(causes) != len(c.Errors) {
				t.Fatalf("%d causes, want %d", len(causes), len(c.Errors))
			}
			for i, e := range c.Errors {
				if causes[i].Field != e.Field {
					t.Errorf("cause %d field %q, want %q", i, causes[i].Field, e.Field)
				}
			}
		})
	}
}
