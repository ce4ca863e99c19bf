package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestSettleWithoutSignal: a catalogue server that says when its answer
// is complete gets no settle window only while that signal is in use.
// When it is not — the tsserver pass-through turned off, a server version
// that offers no pull, a server that has reported no work-done progress —
// its pushes are all there is, and a push that follows the first (as
// typescript-language-server's semantic diagnostics follow its syntactic
// ones) must still be the answer, not the first, empty one: a false clean.
func TestSettleWithoutSignal(t *testing.T) {
	tests := []struct {
		name   string
		signal config.DoneSignal
		caps   map[string]any
		setup  func(c *Client)
	}{
		{"tsserver pull turned off", config.SignalTsserver, tsCaps(""),
			func(c *Client) { c.tsTurnOff(fmt.Errorf("the pass-through answered null")) }},
		{"tsserver pass-through not offered", config.SignalTsserver, map[string]any{"textDocumentSync": 1}, nil},
		{"no diagnostic pull offered", config.SignalPull, map[string]any{"textDocumentSync": 1}, nil},
		{"no work-done progress reported", config.SignalProgress, map[string]any{"textDocumentSync": 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for round := range 3 {
				p, c := newPeer(t, tt.caps, nil)
				c.server.DoneSignal = tt.signal
				if tt.setup != nil {
					tt.setup(c)
				}
				if c.signalling() {
					t.Fatalf("signalling() = true, want false")
				}
				path := writeDoc(t, c, "a.x", "x\n")
				done := make(chan Outcome, 1)
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
					defer cancel()
					done <- c.Update(ctx, []Doc{{Path: path}}, DefaultSettle)
				}()
				n := p.waitNote(t, func(n note) bool { return n.method == "textDocument/didOpen" })
				var open struct {
					TextDocument struct {
						Version int32 `json:"version"`
					} `json:"textDocument"`
				}
				if err := json.Unmarshal(n.params, &open); err != nil {
					t.Fatal(err)
				}
				push := func(ds ...map[string]any) {
					if ds == nil {
						ds = []map[string]any{}
					}
					_ = p.conn.Notify(context.Background(), "textDocument/publishDiagnostics",
						map[string]any{"uri": pathToURI(path), "version": open.TextDocument.Version, "diagnostics": ds})
				}
				push()
				time.Sleep(30 * time.Millisecond) // well inside the 150 ms window the check must wait
				push(wireDiag(0, 0, "semantic"))
				out := <-done
				if out.Freshness != Fresh || fmt.Sprint(messages(out.Files[path])) != "[semantic]" {
					t.Fatalf("round %d: %s %v, want fresh with the second push (the first, empty one is a false clean)",
						round, out.Freshness, messages(out.Files[path]))
				}
			}
		})
	}
}
