package lsp

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/textproto"
	"strconv"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestWantDiagnostics: a server whose catalogue entry sets WantDiagnostics
// (clangd) gets "wantDiagnostics": true on every didChange, and no other
// message or server gets the field. Read from the wire, over a pipe.
func TestWantDiagnostics(t *testing.T) {
	tests := []struct {
		name   string
		want   bool
		method string
		params any
		field  bool // the message carries wantDiagnostics: true
	}{
		{"didChange, clangd", true, "textDocument/didChange", didChangeParams{ContentChanges: []fullChange{{Text: "x"}}}, true},
		{"didChange, another server", false, "textDocument/didChange", didChangeParams{ContentChanges: []fullChange{{Text: "x"}}}, false},
		{"didOpen, clangd", true, "textDocument/didOpen", didOpenParams{TextDocument: TextDocumentItem{Text: "x"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ours, theirs := net.Pipe()
			defer theirs.Close()
			// A discard logger: the pipe closing when the subtest ends makes the
			// client log its end after the subtest is over.
			c := newClient(config.Server{Name: "s", WantDiagnostics: tt.want}, t.TempDir(), slog.New(slog.DiscardHandler))
			c.connect(ours)
			defer c.conn.Close()
			got := make(chan map[string]json.RawMessage, 1)
			go func() { got <- readParams(t, theirs) }()
			if err := c.notify(tt.method, tt.params); err != nil {
				t.Fatal(err)
			}
			params := <-got
			has := string(params["wantDiagnostics"]) == "true"
			if has != tt.field {
				t.Errorf("%s params %v: wantDiagnostics true = %v, want %v", tt.method, keys(params), has, tt.field)
			}
		})
	}
}

// readParams reads one LSP message (a Content-Length header, then JSON)
// from r and returns its params' fields.
func readParams(t *testing.T, r io.Reader) map[string]json.RawMessage {
	br := bufio.NewReader(r)
	h, err := textproto.NewReader(br).ReadMIMEHeader()
	if err != nil {
		t.Error(err)
		return nil
	}
	n, err := strconv.Atoi(h.Get("Content-Length"))
	if err != nil {
		t.Error(err)
		return nil
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(br, body); err != nil {
		t.Error(err)
		return nil
	}
	var msg struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Error(err)
	}
	return msg.Params
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
