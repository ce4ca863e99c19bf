package lsp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestRequestGopls sends definition and hover for a call across packages
// in testdata/langs/go to a real gopls through the Manager, which starts
// the server and opens the file itself.
func TestRequestGopls(t *testing.T) {
	requireServer(t, "gopls")
	dir := tempDir(t)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "langs", "go"))); err != nil {
		t.Fatal(err)
	}
	m, ctx := realManager(t, dir)

	mainPath := filepath.Join(dir, "main.go")
	// main.go line 10 (0-based 9): "\tfmt.Println(greet.Greet(\"world\"))";
	// "Greet" starts at byte 19, the same in every encoding here.
	params := map[string]any{
		"textDocument": map[string]any{"uri": pathToURI(mainPath)},
		"position":     Position{Line: 9, Character: 19},
	}
	resp, err := m.Request(ctx, mainPath, "textDocument/definition", params)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Server != "gopls" || resp.Encoding == "" {
		t.Errorf("response server %q encoding %q", resp.Server, resp.Encoding)
	}
	var locs []Location
	if err := json.Unmarshal(resp.Result, &locs); err != nil {
		t.Fatalf("decoding %s: %v", resp.Result, err)
	}
	want := pathToURI(filepath.Join(dir, "greet", "greet.go"))
	if len(locs) != 1 || locs[0].URI != want || locs[0].Range.Start.Line != 4 {
		t.Errorf("definition = %s, want %s line 4", resp.Result, want)
	}

	resp, err = m.Request(ctx, mainPath, "textDocument/hover", params)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(resp.Result), "Greet returns a greeting for name.") {
		t.Errorf("hover = %s", resp.Result)
	}

	if _, err := m.Request(ctx, filepath.Join(dir, "notes.txt"), "textDocument/hover", params); !errors.Is(err, ErrNoServer) {
		t.Errorf("request for a file no server handles: err = %v, want ErrNoServer", err)
	}
}

func TestSupports(t *testing.T) {
	c := newClient(config.Server{Name: "x"}, "/", testLogger(t))
	c.caps = capabilitiesOf(json.RawMessage(`{"capabilities": {"hoverProvider": true,
		"definitionProvider": {"workDoneProgress": true}, "referencesProvider": false, "documentSymbolProvider": null}}`))
	for method, want := range map[string]bool{
		"textDocument/hover":          true,
		"textDocument/definition":     true,
		"textDocument/references":     false,
		"textDocument/documentSymbol": false,
		"workspace/symbol":            false,
		"custom/thing":                true, // no known capability: sent unchecked
	} {
		if got := c.Supports(method); got != want {
			t.Errorf("Supports(%s) = %v, want %v", method, got, want)
		}
	}
	c.regs.add([]registration{{id: "1", method: "workspace/symbol"}})
	if !c.Supports("workspace/symbol") {
		t.Error("a dynamic registration does not count as support")
	}
	err := &UnsupportedError{Servers: []string{"x"}, Method: "textDocument/references", Capability: Capability("textDocument/references")}
	if got := err.Error(); got != "x does not support textDocument/references (no referencesProvider in its capabilities)" {
		t.Errorf("error = %q", got)
	}
}

func TestCharacterColumn(t *testing.T) {
	line := []byte("a😀b := x")
	for _, tt := range []struct {
		enc  string
		col  int
		char uint32
	}{
		{EncodingUTF16, 3, 3}, {EncodingUTF8, 3, 5}, {EncodingUTF32, 3, 2},
	} {
		if got := Character(line, tt.col, tt.enc); got != tt.char {
			t.Errorf("Character(col %d, %s) = %d, want %d", tt.col, tt.enc, got, tt.char)
		}
		if got := Column(line, tt.char, tt.enc); got != tt.col {
			t.Errorf("Column(%d, %s) = %d, want %d", tt.char, tt.enc, got, tt.col)
		}
	}
}
