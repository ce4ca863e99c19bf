package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The fake server is this test binary re-executed with LSP_HOOK_FAKE_SERVER
// set to a mode. It is for faults a real server will not produce on demand:
//
//	crash   answers initialize, then exits 3 on the first didOpen/didChange
//	silent  answers initialize and never publishes anything
//	noread  answers initialize, then stops reading stdin for good
//	stale   publishes, for every change, diagnostics tagged with the
//	        previous version first, then the right version after 300 ms
func TestMain(m *testing.M) {
	if mode := os.Getenv("LSP_HOOK_FAKE_SERVER"); mode != "" {
		fakeServer(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func fakeServer(mode string) {
	r := bufio.NewReader(os.Stdin)
	w := os.Stdout
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	for {
		msg, err := readMessage(r)
		if err != nil {
			return
		}
		var m struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Params json.RawMessage  `json:"params"`
		}
		json.Unmarshal(msg, &m)
		switch m.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
				"capabilities": map[string]any{"textDocumentSync": 1}}})
			if mode == "noread" {
				select {} // never read again
			}
		case "shutdown":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		case "exit":
			return
		case "textDocument/didOpen", "textDocument/didChange":
			if mode == "crash" {
				os.Exit(3)
			}
			if mode == "stale" {
				var p struct {
					TextDocument struct {
						URI     string `json:"uri"`
						Version int    `json:"version"`
					} `json:"textDocument"`
				}
				json.Unmarshal(m.Params, &p)
				pub := func(v int, msg string) {
					send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": map[string]any{
						"uri": p.TextDocument.URI, "version": v, "diagnostics": []any{map[string]any{
							"range":   map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 1}},
							"message": msg, "severity": 1}}}})
				}
				pub(p.TextDocument.Version-1, "stale: from the previous version")
				time.Sleep(300 * time.Millisecond)
				pub(p.TextDocument.Version, fmt.Sprintf("fresh: version %d", p.TextDocument.Version))
			}
		}
	}
}

func readMessage(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("no Content-Length")
	}
	buf := make([]byte, n)
	_, err := io.ReadFull(r, buf)
	return buf, err
}
