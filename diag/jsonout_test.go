package diag

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestWriteJSONDecodes: the document decodes into JSONReport with every
// diagnostic, its path filled in, and the counts and notes.
func TestWriteJSONDecodes(t *testing.T) {
	r := sampleReport()
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var got JSONReport
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("decoding WriteJSON output: %v", err)
	}
	if got.Errors != 3 || got.Warnings != 1 || !reflect.DeepEqual(got.Notes, r.Notes) {
		t.Errorf("errors %d warnings %d notes %q, want 3, 1, %q", got.Errors, got.Warnings, got.Notes, r.Notes)
	}
	if len(got.Files) != len(r.Files) {
		t.Fatalf("%d files, want %d", len(got.Files), len(r.Files))
	}
	for i, f := range got.Files {
		want := SortDedupe(append([]Diagnostic(nil), r.Files[i].Diagnostics...))
		if len(want) == 0 {
			want = []Diagnostic{}
		}
		if !reflect.DeepEqual(f.Diagnostics, want) {
			t.Errorf("file %d diagnostics:\n got %+v\nwant %+v", i, f.Diagnostics, want)
		}
	}
	if got.Files[1].Rel != "docs/a b%/c:d.md" || got.Files[2].Rel != "/elsewhere/x.ts" {
		t.Errorf("rel paths %q, %q", got.Files[1].Rel, got.Files[2].Rel)
	}
}

func TestWriteJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, Report{}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"files\": [],\n  \"errors\": 0,\n  \"warnings\": 0,\n  \"notes\": []\n}\n"
	if b.String() != want {
		t.Errorf("empty report = %q, want %q", b.String(), want)
	}
}
