package session

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
)

// TestSaveLoad: what one daemon's record saves the next one loads —
// files in order of first touch, texts before (an empty one a creation),
// the hooks' baselines, the gate's count — except a session idle past
// Idle and one the new daemon already records.
func TestSaveLoad(t *testing.T) {
	old, c := newTest(0, 0)
	old.Touch("s", "claude", []string{"/w/a.go", "/w/new.go"})
	old.SetBefore("s", "/w/a.go", []byte("package a\n"))
	old.SetBefore("s", "/w/new.go", nil)
	broken := []diag.Diagnostic{{Path: "/w/b.go", Line: 3, Severity: diag.SeverityError, Message: "undefined: x"}}
	old.SetOthersBefore("s", map[string][]diag.Diagnostic{"/w/b.go": broken, "/w/c.go": nil})
	old.Stopped("s", 1, true)
	old.SetBegan("s", "0123456789abcdef0123456789abcdef01234567")
	beganAt := c.t
	c.t = c.t.Add(time.Minute)
	old.SetBegan("s", "later") // the first one stays
	old.Touch("idle", "gemini", []string{"/w/z.go"})
	old.Touch("kept", "codex", []string{"/w/old.go"})
	c.t = c.t.Add(50 * time.Minute)
	old.Touch("s", "claude", []string{"/w/b.go"})
	old.Touch("kept", "codex", nil)
	var buf bytes.Buffer
	if n, err := old.Save(&buf); err != nil || n != 3 {
		t.Fatalf("Save = %d, %v; want 3 sessions", n, err)
	}

	c.t = c.t.Add(20 * time.Minute) // "idle" last seen 70 minutes ago, past Idle
	r := New(old.log)
	r.Now, r.Idle = c.now, time.Hour
	r.Touch("kept", "codex", []string{"/w/newer.go"})
	if n, err := r.Load(&buf); err != nil || n != 1 {
		t.Fatalf("Load = %d, %v; want 1 session (one idle, one recorded already)", n, err)
	}
	files, ok := r.Files("s")
	if !ok {
		t.Fatal("session s not loaded")
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"/w/a.go", "/w/new.go", "/w/b.go"}) {
		t.Errorf("files = %q, want a.go, new.go, b.go in order of first touch", paths)
	}
	if string(files[0].Before) != "package a\n" || !files[0].BeforeKnown || len(files[1].Before) != 0 || !files[1].BeforeKnown || files[2].BeforeKnown {
		t.Errorf("texts before = %+v", files)
	}
	if got := r.OthersBefore("s"); len(got) != 2 || len(got["/w/b.go"]) != 1 || got["/w/b.go"][0].Message != "undefined: x" {
		t.Errorf("OthersBefore = %+v, want b.go's error and c.go clean", got)
	}
	if r.BlockedInARow("s") != 1 {
		t.Errorf("BlockedInARow = %d, want 1", r.BlockedInARow("s"))
	}
	if c, at, ok := r.Began("s"); c != "0123456789abcdef0123456789abcdef01234567" || !at.Equal(beganAt) || !ok {
		t.Errorf("Began = %q, %v, %v; want the first commit recorded, at %v", c, at, ok, beganAt)
	}
	r.Touch("none", "claude", nil)
	if !r.ClaimBegan("none") || r.ClaimBegan("none") || r.ClaimBegan("s") || r.ClaimBegan("unknown") {
		t.Error("ClaimBegan: want true once for a session with no commit recorded, false after, for one with it, and for one not recorded")
	}
	r.SetBegan("none", "") // no commit when it began: known, and none
	if c, _, ok := r.Began("none"); c != "" || !ok {
		t.Errorf("Began of a session begun with no commit = %q, %v; want none, known", c, ok)
	}
	if _, ok := r.Files("idle"); ok {
		t.Error("a session idle past Idle was loaded")
	}
	if files, _ := r.Files("kept"); len(files) != 1 || files[0].Path != "/w/newer.go" {
		t.Errorf("a session the new daemon records was overwritten: %+v", files)
	}
}

// TestLoadBad: a record that is not Save's is refused with an error
// naming what was wrong, and adds nothing.
func TestLoadBad(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"not JSON", "{", "unexpected EOF"},
		{"another version", `{"version": 9, "sessions": {"s": {"files": [{"Path": "/w/a.go"}]}}}`, "version 9"},
		{"wrong shape", `{"version": 1, "sessions": []}`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := newTest(0, 0)
			n, err := r.Load(strings.NewReader(tt.doc))
			if err == nil || !strings.Contains(err.Error(), tt.want) || n != 0 || len(r.Summaries()) != 0 {
				t.Errorf("Load = %d, %v; want an error with %q and nothing added", n, err, tt.want)
			}
		})
	}
}

// FuzzLoad: Load never panics on any input, and what it accepts it can
// save again.
func FuzzLoad(f *testing.F) {
	r, _ := newTest(0, 0)
	r.Touch("s", "claude", []string{"/w/a.go"})
	r.SetBefore("s", "/w/a.go", []byte("x"))
	var buf bytes.Buffer
	if _, err := r.Save(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"version":1,"sessions":{"":{"files":[{"Path":""}]}}}`))
	f.Add([]byte(`{"version":1,"sessions":{},"touches":{"/w/a.go":[{"session":"","at":"2026-11-25T12:00:00Z"},{"session":"x","at":"2026-11-25T11:59:00Z"},{"session":"x","at":"2026-11-25T12:00:01Z"}],"":[{"session":"y"}],"/w/b.go":[]}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		r, _ := newTest(2, 2)
		if _, err := r.Load(bytes.NewReader(doc)); err != nil {
			return
		}
		if _, err := r.Save(&bytes.Buffer{}); err != nil {
			t.Fatalf("Save after Load: %v", err)
		}
		for _, s := range r.Summaries() {
			if s.Files > 2 {
				t.Fatalf("session %s has %d files, over MaxFiles 2", s.ID, s.Files)
			}
		}
		if len(r.touches) > maxTouchedFactor*2 {
			t.Fatalf("%d files' touches, over %d", len(r.touches), maxTouchedFactor*2)
		}
		for p, ts := range r.touches {
			if len(ts) == 0 || len(ts) > maxTouchers {
				t.Fatalf("%d touches of %s, want 1 to %d", len(ts), p, maxTouchers)
			}
		}
		r.Sweep()
	})
}
