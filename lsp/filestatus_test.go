package lsp

import (
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestFileStatusBusy: a file clangd reports in any state but "idle" keeps
// a check's answer open; one it never reported on, or reported idle, does
// not; a malformed notification changes nothing.
func TestFileStatusBusy(t *testing.T) {
	c := newClient(config.Server{Name: "clangd"}, t.TempDir(), slog.New(slog.DiscardHandler))
	const a, b = "file:///w/a.c", "file:///w/b.c"
	send := func(raw string) { c.fileStatus(json.RawMessage(raw)) }
	want := map[string]int32{a: 1, b: 1}
	steps := []struct {
		note string
		busy bool
	}{
		{``, false},
		{`{"uri": "` + a + `", "state": "parsing includes"}`, true},
		{`{"uri": "` + b + `", "state": "idle"}`, true},
		{`{"uri": "` + a + `", "state": "building preamble"}`, true},
		{`{"state": "idle"}`, true}, // no uri: dropped
		{`{"uri": "` + a + `", "state": "idle"}`, false},
	}
	for i, s := range steps {
		if s.note != "" {
			send(s.note)
		}
		if got := c.busy(want); got != s.busy {
			t.Errorf("step %d (%s): busy = %v, want %v", i, s.note, got, s.busy)
		}
	}
	if c.busy(map[string]int32{"file:///w/other.c": 1}) {
		t.Error("a file clangd never reported on is busy")
	}
}

// TestFileStatusInOrder: a clangd run in order (--sync) is never busy,
// since clangd 14 leaves its status at "parsing main file" after each
// build then, and its checks wait for the in-order signal instead; the
// same catalogue entry with a configured command that lacks --sync
// follows the status again.
func TestFileStatusInOrder(t *testing.T) {
	const a = "file:///w/a.c"
	for _, tc := range []struct {
		command []string
		busy    bool
	}{
		{[]string{"clangd", "--sync"}, false},
		{[]string{"clangd"}, true},
		{[]string{"clangd", "--log=error"}, true},
	} {
		srv := config.Server{Name: "clangd", Command: tc.command, DoneSignal: config.SignalInOrder, InOrderArg: "--sync"}
		c := newClient(srv, t.TempDir(), slog.New(slog.DiscardHandler))
		c.fileStatus(json.RawMessage(`{"uri": "` + a + `", "state": "parsing main file"}`))
		if got := c.busy(map[string]int32{a: 1}); got != tc.busy {
			t.Errorf("%v: busy = %v, want %v", tc.command, got, tc.busy)
		}
		if got := c.signalling(); got == tc.busy {
			t.Errorf("%v: signalling = %v, want %v", tc.command, got, !tc.busy)
		}
	}
}

// FuzzFileStatus feeds clangd.fileStatus params of any shape: never a
// panic, and a file is busy exactly when its last well-formed state was
// not "idle".
func FuzzFileStatus(f *testing.F) {
	f.Add([]byte(`{"uri": "file:///w/a.c", "state": "idle"}`))
	f.Add([]byte(`{"uri": "file:///w/a.c", "state": "building preamble"}`))
	f.Add([]byte(`{"uri": 1}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		c := newClient(config.Server{Name: "clangd"}, "/w", slog.New(slog.DiscardHandler))
		c.fileStatus(json.RawMessage(raw))
		var p struct {
			URI   string `json:"uri"`
			State string `json:"state"`
		}
		wellFormed := json.Unmarshal(raw, &p) == nil && p.URI != ""
		if got, want := c.busy(map[string]int32{p.URI: 1}), wellFormed && p.State != "idle"; got != want {
			t.Errorf("%q: busy = %v, want %v", raw, got, want)
		}
	})
}
