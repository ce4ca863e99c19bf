package wire

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOversized checks the client's guard on its own: which changes are
// kept, in order, and the note for each left out.
func TestOversized(t *testing.T) {
	small, atMax, over := "{}", strings.Repeat("a", MaxFileSize), strings.Repeat("a", MaxFileSize+1)
	quotes := strings.Repeat(`"`, 11<<20) // 22 MiB escaped: three are over the limit
	tests := []struct {
		name      string
		changes   []Change
		wantKept  []string
		wantNotes []string // prefixes
	}{
		{name: "from disk", changes: []Change{{Path: "a"}}, wantKept: []string{"a"}},
		{name: "small", changes: []Change{{Path: "a", Content: &small}}, wantKept: []string{"a"}},
		{name: "exactly MaxFileSize", changes: []Change{{Path: "a", Content: &atMax}}, wantKept: []string{"a"}},
		{name: "one byte over", changes: []Change{{Path: "a", Content: &over}, {Path: "b", Content: &small}}, wantKept: []string{"b"},
			wantNotes: []string{"skipped a: content of 16.0 MiB is larger than 16 MiB"}},
		{name: "together over the message limit", changes: []Change{{Path: "q1", Content: &quotes}, {Path: "q2", Content: &quotes},
			{Path: "q3", Content: &quotes}, {Path: "small", Content: &small}},
			wantKept: []string{"q1", "q2", "small"}, wantNotes: []string{"skipped q3: its content takes 22.0 MiB as JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, notes := oversized(NotifyChangeParams{Changes: tt.changes})
			var names []string
			for _, c := range kept {
				names = append(names, c.Path)
			}
			if fmt.Sprint(names) != fmt.Sprint(tt.wantKept) {
				t.Errorf("kept %q, want %q", names, tt.wantKept)
			}
			if len(notes) != len(tt.wantNotes) {
				t.Fatalf("notes = %q, want %d", notes, len(tt.wantNotes))
			}
			for i, want := range tt.wantNotes {
				if !strings.HasPrefix(notes[i], want) {
					t.Errorf("note %q, want it to start %q", notes[i], want)
				}
			}
		})
	}
}

// TestEncodedLen: encodedLen is the length encoding/json gives a string,
// for every kind of byte it escapes and for random bytes.
func TestEncodedLen(t *testing.T) {
	cases := []string{"", "abc", `"`, `\`, "\n\r\t\b\f", "\x00\x01\x1f\x7f", "<>&", "é", "日本語", "\xff", "a\xc3", "\xe2\x80\xa8\xe2\x80\xa9",
		"😀", "\xed\xa0\x80", "x</script>y"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		enc, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodedLen(s); got != len(enc) {
			t.Errorf("encodedLen(%q) = %d, json.Marshal gives %d bytes: %s", s, got, len(enc), enc)
		}
	}
}
