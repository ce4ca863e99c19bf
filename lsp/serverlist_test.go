package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// listWorkspace is a project in Go, TypeScript and Python, with a
// Dockerfile, and a dependency under node_modules that is not the
// project's.
var listWorkspace = map[string]string{
	"go.mod":                     "module example.com/w\n\ngo 1.22\n",
	"main.go":                    "package main\n\nfunc main() {}\n",
	"package.json":               "{}\n",
	"src/a.ts":                   "export const a = 1;\n",
	"pyproject.toml":             "[project]\nname = \"w\"\n",
	"app/b.py":                   "b = 1\n",
	"Dockerfile":                 "FROM scratch\n",
	"README.md":                  "# w\n",
	"node_modules/dep/index.js":  "module.exports = 1;\n",
	"node_modules/dep/other.cjs": "module.exports = 2;\n",
}

// TestServersList: on a workspace with Go, TypeScript and Python files,
// gopls, typescript-language-server and pyright are used, found where they
// are (PATH, lsp-hook's servers directory) or shown with their install
// command; servers off by default are not used even when files match.
func TestServersList(t *testing.T) {
	servers, fakeBin := isolateTools(t, "/usr/bin", "/bin")
	root := workspace(t, listWorkspace)
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root)) // a walk, even if the temp dir is in a work tree
	fakeProgram(t, fakeBin, "gopls", "exit 0\n")
	if err := os.MkdirAll(filepath.Join(servers, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	fakeProgram(t, filepath.Join(servers, "bin"), "pyright-langserver", "exit 0\n")

	list, err := ListServers(context.Background(), config.Default(), root)
	if err != nil {
		t.Fatal(err)
	}
	if list.Scanned != 8 || list.Capped {
		t.Errorf("scanned %d files (capped %v), want the 8 outside node_modules", list.Scanned, list.Capped)
	}
	got := make(map[string]ServerInfo)
	for _, s := range list.Servers {
		got[s.Name] = s
	}
	if len(got) != len(config.Catalogue()) {
		t.Errorf("%d servers listed, want the %d of the catalogue", len(got), len(config.Catalogue()))
	}
	tests := []struct {
		name        string
		files       int
		used        bool
		where, path string
		hint        string
	}{
		{"gopls", 2, true, FoundOnPath, filepath.Join(fakeBin, "gopls"), ""}, // main.go, go.mod
		{"pyright", 1, true, FoundInServers, filepath.Join(servers, "bin", "pyright-langserver"), ""},
		{"typescript-language-server", 1, true, FoundNowhere, "", "lsp-hook servers install typescript-language-server"},
		{"docker-langserver", 1, true, FoundNowhere, "", "lsp-hook servers install docker-langserver"},
		{"basedpyright", 1, false, FoundNowhere, "", "lsp-hook servers install basedpyright"}, // off by default
		{"eslint", 1, false, FoundNowhere, "", "lsp-hook servers install eslint"},
		{"vscode-json-language-server", 1, false, FoundNowhere, "", "lsp-hook servers install vscode-json-language-server"},
		{"rust-analyzer", 0, false, FoundNowhere, "", "rustup component add rust-analyzer"},
	}
	for _, tt := range tests {
		s := got[tt.name]
		if s.Files != tt.files || s.Used != tt.used || s.Where != tt.where || s.Path != tt.path || s.InstallHint != tt.hint {
			t.Errorf("%s: files %d, used %v, where %s, path %q, hint %q; want %d, %v, %s, %q, %q",
				tt.name, s.Files, s.Used, s.Where, s.Path, s.InstallHint, tt.files, tt.used, tt.where, tt.path, tt.hint)
		}
	}
	if s := got["typescript-language-server"]; strings.Join(s.Languages, " ") != "javascript javascriptreact typescript typescriptreact" ||
		s.Method != config.InstallNPM || len(s.Packages) != 2 {
		t.Errorf("typescript-language-server: %+v", s)
	}

	var table bytes.Buffer
	if err := WriteServerTable(&table, list); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(table.String(), "\n")
	if fields := strings.Fields(lines[0]); strings.Join(fields, " ") != "NAME LANGUAGES ENABLED FILES USED PROGRAM" {
		t.Errorf("header %q", lines[0])
	}
	for _, want := range [][]string{
		{"gopls", "go,go.mod,go.work", "yes", "2", "yes", filepath.Join(fakeBin, "gopls"), "(PATH)"},
		{"pyright", "python", "yes", "1", "yes", filepath.Join(servers, "bin", "pyright-langserver"), "(lsp-hook)"},
		{"typescript-language-server", "javascript,javascriptreact,typescript,typescriptreact", "yes", "1", "yes",
			"missing:", "lsp-hook", "servers", "install", "typescript-language-server"},
		{"yaml-language-server", "yaml", "no", "0", "no", "missing:", "lsp-hook", "servers", "install", "yaml-language-server"},
	} {
		if !hasRow(lines, want) {
			t.Errorf("no row %q in:\n%s", want, table.String())
		}
	}

	data, err := json.Marshal(list)
	if err != nil || !bytes.Contains(data, []byte(`{"name":"gopls","languages":["go","go.mod","go.work"],"extensions":[".go"],"file_names":["go.mod","go.work"],"enabled":true,"where":"PATH"`)) {
		t.Errorf("JSON: %v\n%s", err, data)
	}

	cfg := config.Default()
	cfg.LSP.Enabled = false
	list, err = ListServers(context.Background(), cfg, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list.Servers {
		if s.Used {
			t.Errorf("%s used with `lsp: false`", s.Name)
		}
	}
}

// hasRow reports whether one of lines has exactly the fields want.
func hasRow(lines []string, want []string) bool {
	for _, l := range lines {
		if strings.Join(strings.Fields(l), " ") == strings.Join(want, " ") {
			return true
		}
	}
	return false
}

// TestServersListGit: in a git work tree the files are git's (tracked and
// untracked, ignored ones left out), and the scan stops at its cap.
func TestServersListGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	isolateTools(t, "/usr/bin", "/bin")
	root := workspace(t, listWorkspace)
	writeFiles(t, root, map[string]string{
		".gitignore":       "node_modules/\nbuild/\n",
		"build/gen.go":     "package gen\n",
		"cmd/tool/tool.go": "package main\n",
	})
	if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	if out, err := exec.Command("git", "-C", root, "add", "main.go").CombinedOutput(); err != nil {
		t.Fatalf("git add: %v: %s", err, out)
	}
	files, capped, err := ws.Files(context.Background(), root, MaxScannedFiles)
	if err != nil || capped {
		t.Fatalf("Files = %v, capped %v, %v", files, capped, err)
	}
	want := []string{".gitignore", "Dockerfile", "README.md", "app/b.py", "cmd/tool/tool.go", "go.mod", "main.go",
		"package.json", "pyproject.toml", "src/a.ts"}
	if strings.Join(slices.Sorted(slices.Values(files)), " ") != strings.Join(want, " ") {
		t.Errorf("files = %v, want %v", files, want)
	}
	list, err := ListServers(context.Background(), config.Default(), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list.Servers {
		if s.Name == "gopls" && (s.Files != 3 || !s.Used) {
			t.Errorf("gopls: %d files, used %v; want 3 (main.go, cmd/tool/tool.go, go.mod; build/ is ignored), used", s.Files, s.Used)
		}
	}

	walked := workspace(t, listWorkspace)
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(walked))
	for _, dir := range []string{root, walked} { // git, then a walk
		files, capped, err := ws.Files(context.Background(), dir, 3)
		if err != nil || !capped || len(files) != 3 {
			t.Errorf("Files(%s, 3) = %v, capped %v, %v; want 3 files, capped", dir, files, capped, err)
		}
	}
}
