package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestInstallMCP registers lsp-hook in .mcp.json and takes it out again,
// per starting file: install matches the golden file (when there is one)
// and keeps every original byte in order, a second install changes no
// byte, and uninstall gives back the original bytes (through the backup,
// and with the backup gone through the edit alone) or deletes the file
// install created.
func TestInstallMCP(t *testing.T) {
	fixture := readInstallFile(t, filepath.Join(installFixtureDir, "mcp.json"))
	tests := []struct {
		name      string
		orig      []byte // nil: no file
		golden    string // "" when not compared with a golden file
		dropBak   bool   // remove the backup before uninstalling
		subseq    bool   // install only inserts bytes
		wantFirst Action
		after     []byte // the file after uninstall when it is not orig
	}{
		{name: "fixture", orig: fixture, golden: "mcp.golden", subseq: true, wantFirst: Updated},
		{name: "fixture without backup", orig: fixture, dropBak: true, subseq: true, wantFirst: Updated},
		{name: "new file", golden: "mcp.new.golden", wantFirst: Created},
		{name: "other keys only", orig: []byte("{\"x\": 1}\n"), dropBak: true, subseq: true, wantFirst: Updated},
		{name: "stale entry", orig: []byte("{\n  \"mcpServers\": {\n    \"lsp-hook\": {\"command\": \"/old/lsp-hook\", \"args\": [\"mcp\"]}\n  }\n}\n"), wantFirst: Updated,
			after: []byte("{}\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testdir.New(t)
			opts := Options{Scope: ProjectScope, Root: root}
			path := filepath.Join(root, MCPConfigFile)
			if tt.orig != nil {
				writeInstallFile(t, path, tt.orig)
			}
			res, err := AddMCP(ProgramName, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != tt.wantFirst || res.Path != path || res.Diff == "" {
				t.Fatalf("install: action %s, path %s, diff:\n%s", res.Action, res.Path, res.Diff)
			}
			installed := readInstallFile(t, path)
			var doc struct{ MCPServers map[string]json.RawMessage }
			if err := json.Unmarshal(installed, &doc); err != nil || string(doc.MCPServers["lsp-hook"]) == "" ||
				!jsonEqualBytes(doc.MCPServers["lsp-hook"], `{"command":"lsp-hook","args":["mcp"]}`) {
				t.Errorf("no lsp-hook entry (%v) in:\n%s", err, installed)
			}
			if tt.golden != "" {
				checkInstallGolden(t, tt.golden, installed)
			}
			if tt.subseq && !installIsSubsequence(tt.orig, installed) {
				t.Errorf("install removed or changed original bytes:\n%s", res.Diff)
			}
			if again, err := AddMCP(ProgramName, opts); err != nil || again.Action != Unchanged || again.Diff != "" {
				t.Errorf("second install: %v, %+v", err, again)
			}
			if !bytes.Equal(readInstallFile(t, path), installed) {
				t.Error("second install changed the file")
			}
			if tt.dropBak {
				os.Remove(path + BackupSuffix)
			}
			un, err := RemoveMCP(opts)
			if err != nil {
				t.Fatal(err)
			}
			if tt.orig == nil {
				if un.Action != Removed {
					t.Errorf("uninstall of a created file: action %s", un.Action)
				}
				if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("uninstall left %s: %v", path, err)
				}
			} else if want, got := cmpOr(tt.after, tt.orig), readInstallFile(t, path); !bytes.Equal(got, want) {
				t.Errorf("uninstall did not give the expected bytes:\n%s", unifiedDiff("want", "after uninstall", want, got))
			}
			if un, err := RemoveMCP(opts); err != nil || un.Action != Unchanged {
				t.Errorf("second uninstall: %v, %+v", err, un)
			}
		})
	}
}

// jsonEqualBytes reports whether a and b are the same JSON value.
func jsonEqualBytes(a []byte, b string) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// cmpOr returns a when it is not nil, else b.
func cmpOr(a, b []byte) []byte {
	if a != nil {
		return a
	}
	return b
}

// TestInstallMCPDryRunAndRefusals: a dry run writes nothing, a user-scope
// --mcp is refused, and a server of the same name that is not lsp-hook is
// left alone by uninstall.
func TestInstallMCPDryRunAndRefusals(t *testing.T) {
	root := testdir.New(t)
	path := filepath.Join(root, MCPConfigFile)
	fixture := readInstallFile(t, filepath.Join(installFixtureDir, "mcp.json"))
	writeInstallFile(t, path, fixture)
	res, err := AddMCP("/opt/bin/lsp-hook", Options{Root: root, DryRun: true})
	if err != nil || !strings.Contains(res.Diff, `+        "lsp-hook": {`) || !strings.Contains(res.Diff, `"command": "/opt/bin/lsp-hook"`) {
		t.Fatalf("dry run: %v\n%s", err, res.Diff)
	}
	if !bytes.Equal(readInstallFile(t, path), fixture) {
		t.Error("dry run changed the file")
	}
	if _, err := os.Stat(path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dry run made a backup: %v", err)
	}
	if _, err := AddMCP(ProgramName, Options{Scope: UserScope, Home: root}); err == nil {
		t.Error("user scope was accepted")
	}
	other := []byte(`{"mcpServers": {"lsp-hook": {"command": "my-own-server"}}}`)
	writeInstallFile(t, path, other)
	if un, err := RemoveMCP(Options{Root: root}); err != nil || un.Action != Unchanged {
		t.Errorf("uninstall of a foreign entry: %v, %+v", err, un)
	}
	bad := []byte(`{"mcpServers": []}`)
	writeInstallFile(t, path, bad)
	if _, err := AddMCP(ProgramName, Options{Root: root}); !errors.Is(err, ErrBadConfig) {
		t.Errorf("mcpServers array: %v", err)
	}
}
