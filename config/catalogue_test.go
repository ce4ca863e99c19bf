package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// lspLanguageIDs are the language identifiers of LSP 3.17 "Text Document
// Item" (the table of known identifiers).
var lspLanguageIDs = []string{
	"abap", "bat", "bibtex", "clojure", "coffeescript", "c", "cpp", "csharp", "css", "diff",
	"dart", "dockerfile", "elixir", "erlang", "fsharp", "git-commit", "git-rebase", "go",
	"groovy", "handlebars", "html", "ini", "java", "javascript", "javascriptreact", "json",
	"latex", "less", "lua", "makefile", "markdown", "objective-c", "objective-cpp", "perl",
	"perl6", "php", "powershell", "jade", "python", "r", "razor", "ruby", "rust", "scss", "sass",
	"scala", "shaderlab", "shellscript", "sql", "swift", "typescript", "typescriptreact", "tex", "vb",
	"xml", "xsl", "yaml",
}

// otherLanguageIDs are identifiers for languages LSP 3.17's table does not
// list, as the language's own VS Code extension (or, for jsonc, VS Code
// itself) declares them, which is what their servers expect.
var otherLanguageIDs = []string{
	"astro", "go.mod", "go.work", "haskell", "jsonc", "kotlin", "ocaml", "ocaml.interface", "svelte", "terraform",
	"terraform-vars", "vue", "zig", "luau",
}

// languageOf names the language of each identifier the catalogue uses,
// so that typescriptreact and typescript count as one language.
var languageOf = map[string]string{
	"astro": "Astro", "luau": "Luau", "c": "C", "cpp": "C++", "csharp": "C#", "css": "CSS", "dart": "Dart",
	"dockerfile": "Dockerfile", "elixir": "Elixir", "go": "Go", "go.mod": "Go", "go.work": "Go", "haskell": "Haskell", "html": "HTML",
	"java": "Java", "javascript": "JavaScript", "javascriptreact": "JavaScript", "json": "JSON", "jsonc": "JSON",
	"kotlin": "Kotlin", "less": "Less", "lua": "Lua", "objective-c": "Objective-C", "objective-cpp": "Objective-C++",
	"ocaml": "OCaml", "ocaml.interface": "OCaml", "php": "PHP", "python": "Python", "ruby": "Ruby", "rust": "Rust",
	"scss": "SCSS", "shellscript": "Shell", "svelte": "Svelte", "swift": "Swift", "terraform": "Terraform",
	"terraform-vars": "Terraform", "typescript": "TypeScript", "typescriptreact": "TypeScript", "vue": "Vue",
	"yaml": "YAML", "zig": "Zig",
}

// offByDefault are the catalogue servers that config must turn on, each
// for the reason Catalogue's doc comment gives.
var offByDefault = []string{
	"basedpyright", "bash-language-server", "biome", "eslint", "pylsp", "ruff",
	"vscode-json-language-server", "yaml-language-server",
}

// TestCatalogueShape checks what every entry must have for the manager to
// run it and for `servers install` to install it: a command, extensions
// with their dot or file names, an LSP language id for each, root markers
// that are plain file names, and an install method with pinned versions.
func TestCatalogueShape(t *testing.T) {
	cat := Catalogue()
	if !slices.IsSortedFunc(cat, func(a, b Server) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("catalogue not in name order")
	}
	known := append(slices.Clone(lspLanguageIDs), otherLanguageIDs...)
	seen := make(map[string]bool)
	for _, s := range cat {
		if seen[s.Name] {
			t.Errorf("%s listed twice", s.Name)
		}
		seen[s.Name] = true
		if len(s.Command) == 0 || s.Command[0] == "" {
			t.Errorf("%s: command %q, want one", s.Name, s.Command)
		}
		if s.Enabled == slices.Contains(offByDefault, s.Name) {
			t.Errorf("%s: enabled %v by default", s.Name, s.Enabled)
		}
		if len(s.Extensions)+len(s.FileNames) == 0 || len(s.RootMarkers) == 0 {
			t.Errorf("%s: no extensions or file names, or no root markers", s.Name)
		}
		for _, ext := range s.Extensions {
			if !strings.HasPrefix(ext, ".") || strings.Count(ext, ".") != 1 {
				t.Errorf("%s: extension %q, want one dot, first", s.Name, ext)
			}
		}
		var paths []string
		for _, ext := range s.Extensions {
			paths = append(paths, "dir/x"+ext)
		}
		for _, name := range s.FileNames {
			paths = append(paths, "dir/"+name)
		}
		for _, p := range paths {
			if id := s.LanguageIDFor(p); !slices.Contains(known, id) || !s.ServesPath(p) {
				t.Errorf("%s: %s has language id %q (not one of LSP 3.17's or otherLanguageIDs), serves %v",
					s.Name, p, id, s.ServesPath(p))
			}
		}
		for key := range s.LanguageIDs {
			if !s.Serves(key) && !slices.Contains(s.FileNames, key) {
				t.Errorf("%s: language id for %s, which it does not serve", s.Name, key)
			}
		}
		for _, m := range append(slices.Clone(s.RootMarkers), s.GivesWay...) {
			if _, err := filepath.Match(m, ""); m == "" || strings.ContainsAny(m, `/\`) || err != nil {
				t.Errorf("%s: root marker %q, want a file name or a glob of one", s.Name, m)
			}
		}
		if err := checkInstall(s); err != "" {
			t.Errorf("%s: install %+v: %s", s.Name, s.Install, err)
		}
	}
}

// pinned matches what an install may name: an exact version, never a
// range or a tag.
var (
	goPinned  = regexp.MustCompile(`^[a-z0-9.\-]+(/[A-Za-z0-9._\-]+)+@v\d+\.\d+\.\d+$`)
	npmPinned = regexp.MustCompile(`^(@[a-z0-9\-.]+/)?[a-z0-9\-.]+@\d+\.\d+\.\d+$`)
)

// checkInstall returns what is wrong with s.Install, or "".
func checkInstall(s Server) string {
	in := s.Install
	if in.Binary != s.Command[0] {
		return "binary is not the command's program"
	}
	switch in.Method {
	case InstallGo:
		if len(in.Packages) != 1 || !goPinned.MatchString(in.Packages[0]) {
			return "want one module path@vX.Y.Z"
		}
	case InstallNPM:
		if len(in.Packages) == 0 {
			return "no packages"
		}
		for _, p := range in.Packages {
			if !npmPinned.MatchString(p) {
				return fmt.Sprintf("%q is not name@X.Y.Z", p)
			}
		}
	case InstallApt:
		if len(in.Packages) != 1 || strings.ContainsAny(in.Packages[0], " @=") {
			return "want one Debian package name"
		}
	case InstallSystem:
		if in.Hint == "" || len(in.Packages) != 0 {
			return "want a hint and no packages"
		}
	default:
		return "unknown method"
	}
	return ""
}

// TestCatalogueLanguages: the catalogue covers at least 25 languages.
func TestCatalogueLanguages(t *testing.T) {
	langs := make(map[string]bool)
	for _, s := range Catalogue() {
		for _, id := range s.LanguageIDs {
			name, ok := languageOf[id]
			if !ok {
				t.Errorf("%s: language id %q missing from languageOf", s.Name, id)
			}
			langs[name] = true
		}
	}
	if len(langs) < 25 {
		t.Errorf("catalogue covers %d languages, want at least 25: %v", len(langs), sortedKeys(langs))
	}
	t.Logf("%d languages: %v", len(langs), sortedKeys(langs))
}

// TestCatalogueOverlaps: no two servers on by default serve the same
// extension or file name, so a file's diagnostics come from one server
// unless config asks for more; the servers off by default overlap only
// where their doc says so.
func TestCatalogueOverlaps(t *testing.T) {
	js := []string{".cjs", ".cts", ".js", ".jsx", ".mjs", ".mts", ".ts", ".tsx"}
	wantAll := map[string][]string{
		".py":  {"basedpyright", "pylsp", "pyright", "ruff"},
		".pyi": {"basedpyright", "pylsp", "pyright", "ruff"},
		".css": {"biome", "vscode-css-language-server"},
		// biome also serves .json and .jsonc beside vscode-json-language-server.
		".json": {"biome", "vscode-json-language-server"}, ".jsonc": {"biome", "vscode-json-language-server"},
	}
	for _, ext := range js {
		wantAll[ext] = []string{"biome", "eslint", "typescript-language-server"}
	}
	gotAll, gotOn := make(map[string][]string), make(map[string][]string)
	for _, s := range Catalogue() {
		for _, k := range append(slices.Clone(s.Extensions), s.FileNames...) {
			gotAll[k] = append(gotAll[k], s.Name)
			if s.Enabled {
				gotOn[k] = append(gotOn[k], s.Name)
			}
		}
	}
	for k, names := range gotOn {
		if len(names) > 1 && !partitioned(names) {
			t.Errorf("%s is served by %v, all on by default", k, names)
		}
	}
	for k, names := range gotAll {
		if len(names) > 1 && !partitioned(names) && !slices.Equal(names, wantAll[k]) {
			t.Errorf("%s is served by %v, want %v", k, names, wantAll[k])
		}
	}
	for k, names := range wantAll {
		if !slices.Equal(gotAll[k], names) {
			t.Errorf("%s is served by %v, want %v", k, gotAll[k], names)
		}
	}
}

// TestCataloguePins: the servers lsp-hook's own tests install (`make
// tools`) are pinned to the same versions in the catalogue, so `lsp-hook
// servers install` gets what the tests ran against.
func TestCataloguePins(t *testing.T) {
	var pkg struct{ Dependencies map[string]string }
	data, err := os.ReadFile(filepath.Join("..", "tools", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	servers := Default().LSP.Servers
	for name, pkgs := range map[string][]string{
		"pyright": {"pyright"}, "typescript-language-server": {"typescript-language-server", "typescript"},
	} {
		var want []string
		for _, p := range pkgs {
			want = append(want, p+"@"+pkg.Dependencies[p])
		}
		if got := servers[name].Install.Packages; !slices.Equal(got, want) {
			t.Errorf("%s installs %v; tools/package.json pins %v", name, got, want)
		}
	}
	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^GOPLS_VERSION\s*:=\s*(\S+)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("no GOPLS_VERSION in the Makefile")
	}
	if got, want := servers["gopls"].Install.Packages, []string{"golang.org/x/tools/gopls@" + string(m[1])}; !slices.Equal(got, want) {
		t.Errorf("gopls installs %v; the Makefile pins %v", got, want)
	}
}

// TestCatalogueOwnMaps: no two entries share a map or a slice, since
// config loading edits a server's LanguageIDs in place.
func TestCatalogueOwnMaps(t *testing.T) {
	cat := Catalogue()
	seen := make(map[string]string)
	for _, s := range cat {
		for what, p := range map[string]string{
			"language ids": fmt.Sprintf("%p", s.LanguageIDs), "extensions": fmt.Sprintf("%p", s.Extensions),
			"root markers": fmt.Sprintf("%p", s.RootMarkers),
		} {
			if other, dup := seen[p]; dup && p != "0x0" {
				t.Errorf("%s shares its %s with %s", s.Name, what, other)
			}
			seen[p] = s.Name
		}
	}
	cat[0].LanguageIDs[".changed"] = "x"
	if Catalogue()[0].LanguageIDs[".changed"] != "" {
		t.Errorf("Catalogue returns maps it keeps")
	}
}

// TestCatalogueSuggest: a misspelt server name gets the right suggestion.
func TestCatalogueSuggest(t *testing.T) {
	names := sortedKeys(Default().LSP.Servers)
	if got := Suggest("yaml-languageserver", names); got != `; did you mean "yaml-language-server"?` {
		t.Errorf("Suggest = %q", got)
	}
	if got := Suggest("cobol", names); got != "" {
		t.Errorf("Suggest(cobol) = %q, want none", got)
	}
}

// TestServersFor checks which built-in server answers for each kind of
// file, with the language id it is sent under.
func TestServersFor(t *testing.T) {
	tests := []struct {
		ext, server, languageID string // server "" when none serves ext
	}{
		{".go", "gopls", "go"},
		{".py", "pyright", "python"},
		{".pyi", "pyright", "python"},
		{".ts", "typescript-language-server", "typescript"},
		{".mts", "typescript-language-server", "typescript"},
		{".cts", "typescript-language-server", "typescript"},
		{".tsx", "typescript-language-server", "typescriptreact"},
		{".js", "typescript-language-server", "javascript"},
		{".mjs", "typescript-language-server", "javascript"},
		{".cjs", "typescript-language-server", "javascript"},
		{".jsx", "typescript-language-server", "javascriptreact"},
		{".c", "clangd", "c"},
		{".h", "clangd", "c"},
		{".cc", "clangd", "cpp"},
		{".cpp", "clangd", "cpp"},
		{".cxx", "clangd", "cpp"},
		{".hh", "clangd", "cpp"},
		{".hpp", "clangd", "cpp"},
		{".m", "clangd", "objective-c"},
		{".mm", "clangd", "objective-cpp"},
		{".rs", "rust-analyzer", "rust"},
		{".css", "vscode-css-language-server", "css"},
		{".scss", "vscode-css-language-server", "scss"},
		{".html", "vscode-html-language-server", "html"},
		{".java", "jdtls", "java"},
		{".rb", "ruby-lsp", "ruby"},
		{".tf", "terraform-ls", "terraform"},
		{".vue", "vue-language-server", "vue"},
		{".mli", "ocamllsp", "ocaml.interface"},
		{".json", "", ""}, // the JSON validator's; vscode-json-language-server is off
		{".yaml", "", ""}, // the YAML validator's; yaml-language-server is off
		{".sh", "", ""},   // the shellcheck linter's; bash-language-server is off
		{".md", "", ""},
		{".GO", "", ""}, // extensions compare case-sensitively, as servers do
		{"", "", ""},
	}
	cfg := Default()
	for _, tt := range tests {
		got := cfg.ServersFor(tt.ext)
		switch {
		case tt.server == "" && len(got) != 0:
			t.Errorf("ServersFor(%q) = %s, want none", tt.ext, got[0].Name)
		case tt.server == "":
		case len(got) != 1 || got[0].Name != tt.server:
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
			}
			t.Errorf("ServersFor(%q) = %v, want [%s]", tt.ext, names, tt.server)
		case got[0].LanguageID(tt.ext) != tt.languageID:
			t.Errorf("%s sends %s as %q, want %q", tt.server, tt.ext, got[0].LanguageID(tt.ext), tt.languageID)
		}
	}
}

// TestServersForPath checks that files known by name find their server,
// and that paths with an extension behave as ServersFor does.
func TestServersForPath(t *testing.T) {
	tests := []struct {
		path, server, languageID string // server "" when none serves path
	}{
		{"/w/Dockerfile", "docker-langserver", "dockerfile"},
		{"/w/deploy/Containerfile", "docker-langserver", "dockerfile"},
		{"/w/build.dockerfile", "docker-langserver", "dockerfile"},
		{"/w/Dockerfile.dev", "", ""}, // neither a file name nor an extension the server lists
		{"/w/dockerfile", "", ""},     // names compare case-sensitively
		{"/w/Gemfile", "ruby-lsp", "ruby"},
		{"/w/Rakefile", "ruby-lsp", "ruby"},
		{"/w/lib/a.rb", "ruby-lsp", "ruby"},
		{"/w/main.go", "gopls", "go"},
		{"/w/Dockerfile/main.go", "gopls", "go"}, // a directory's name is not the file's
		{"/w/.bashrc", "", ""},
		{"/w/Makefile", "", ""},
	}
	cfg := Default()
	for _, tt := range tests {
		got := cfg.ServersForPath(tt.path)
		var names []string
		for _, s := range got {
			names = append(names, s.Name)
		}
		switch {
		case tt.server == "" && len(got) != 0:
			t.Errorf("ServersForPath(%q) = %v, want none", tt.path, names)
		case tt.server == "":
		case len(got) != 1 || got[0].Name != tt.server:
			t.Errorf("ServersForPath(%q) = %v, want [%s]", tt.path, names, tt.server)
		case got[0].LanguageIDFor(tt.path) != tt.languageID:
			t.Errorf("%s sends %s as %q, want %q", tt.server, tt.path, got[0].LanguageIDFor(tt.path), tt.languageID)
		}
	}
	cfg.LSP.Enabled = false
	if got := cfg.ServersForPath("/w/Dockerfile"); len(got) != 0 {
		t.Errorf("ServersForPath with LSP off = %d servers", len(got))
	}
}

// TestCatalogueChoices pins the choices the catalogue's doc comment argues
// for, so that changing one means revisiting its reason there.
func TestCatalogueChoices(t *testing.T) {
	servers := Default().LSP.Servers
	tests := []struct {
		name string
		ok   bool
	}{
		{"gopls: the nearest go.work, else the workspace root", slices.Equal(servers["gopls"].RootMarkers, []string{"go.work"})},
		{"gopls: diagnosticsDelay 0s", lookup(servers["gopls"].Settings, "gopls", "diagnosticsDelay") == "0s"},
		{"gopls: its diagnostic passes reported as progress, in both places gopls reads options",
			lookup(servers["gopls"].Settings, "gopls", "verboseWorkDoneProgress") == true &&
				lookup(servers["gopls"].InitializationOptions, "verboseWorkDoneProgress") == true},
		{"pyright: pyrightconfig.json before the packaging files", servers["pyright"].RootMarkers[0] == "pyrightconfig.json"},
		{"pyright: openFilesOnly", lookup(servers["pyright"].Settings, "python", "analysis", "diagnosticMode") == "openFilesOnly"},
		{"clangd: no background index", slices.Contains(servers["clangd"].Command, "--background-index=false")},
		{"clangd: handles its messages in order (--sync), which its checks' signal needs",
			servers["clangd"].DoneSignal == SignalInOrder && servers["clangd"].InOrderArg == "--sync" &&
				slices.Contains(servers["clangd"].Command, "--sync") && servers["clangd"].Settle == 0},
		{"clangd: clang-tidy off unless a .clang-tidy can raise its warnings, and not in the command itself",
			slices.Equal(servers["clangd"].WarningsOnlyArgs, []string{"--clang-tidy=false"}) &&
				slices.Equal(servers["clangd"].WarningsConfigFiles, []string{".clang-tidy"}) &&
				!slices.ContainsFunc(servers["clangd"].Command, func(a string) bool { return strings.HasPrefix(a, "--clang-tidy") })},
		{"rust-analyzer: rust-project.json before Cargo.toml, as rust-analyzer discovers projects",
			slices.Equal(servers["rust-analyzer"].RootMarkers, []string{"rust-project.json", ".rust-project.json", "Cargo.toml"})},
		{"rust-analyzer: no settings (it never asks lsp-hook for them)", servers["rust-analyzer"].Settings == nil},
		{"typescript-language-server: no tsserver.path, so a project's own TypeScript wins",
			lookup(servers["typescript-language-server"].InitializationOptions, "tsserver", "path") == nil},
		{"typescript-language-server: no typing acquisition",
			lookup(servers["typescript-language-server"].InitializationOptions, "disableAutomaticTypingAcquisition") == true},
		{"typescript-language-server: one tsserver",
			lookup(servers["typescript-language-server"].InitializationOptions, "tsserver", "useSyntaxServer") == "never"},
		{"vue-language-server: version 2, on its own (version 3 needs a tsserver relay)",
			lookup(servers["vue-language-server"].InitializationOptions, "vue", "hybridMode") == false &&
				strings.HasPrefix(servers["vue-language-server"].Install.Packages[0], "@vue/language-server@2.")},
		{"vue-language-server and astro-language-server: the project's TypeScript, relative to the root",
			lookup(servers["vue-language-server"].InitializationOptions, "typescript", "tsdk") == "node_modules/typescript/lib" &&
				lookup(servers["astro-language-server"].InitializationOptions, "typescript", "tsdk") == "node_modules/typescript/lib"},
		{"svelte-language-server: TypeScript 5 beside it, not whatever its peer range allows",
			slices.Contains(servers["svelte-language-server"].Install.Packages, "typescript@5.9.3")},
		{"yaml-language-server: 1.x (2.x needs Node 22)",
			strings.HasPrefix(servers["yaml-language-server"].Install.Packages[0], "yaml-language-server@1.")},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: not so", tt.name)
		}
	}
}

// lookup follows keys through nested map[string]any values; nil when a key
// is missing.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// partitioned reports whether the catalogue servers names split their
// files by markers (Server.RootRequired and GivesWay): two servers, one
// serving only under its root markers, the other giving way under them.
func partitioned(names []string) bool {
	if len(names) != 2 {
		return false
	}
	cat := make(map[string]Server)
	for _, s := range Catalogue() {
		cat[s.Name] = s
	}
	a, b := cat[names[0]], cat[names[1]]
	if !a.RootRequired {
		a, b = b, a
	}
	if !a.RootRequired {
		return false
	}
	for _, m := range a.RootMarkers {
		if !slices.Contains(b.GivesWay, m) {
			return false
		}
	}
	return true
}

// TestMarkersPartition: in a Rojo project (a NAME.project.json at its
// root, matched by glob) .lua files go to luau-lsp alone, elsewhere to
// lua-language-server alone; .luau goes to luau-lsp only in a Rojo
// project, its root the project's directory.
func TestMarkersPartition(t *testing.T) {
	root := testdir.New(t)
	for name, text := range map[string]string{
		"game/place.project.json": `{"name": "place", "tree": {"$path": "src"}}`,
		"game/src/init.lua":       "return {}\n",
		"game/src/mod.luau":       "return {}\n",
		"tools/build.lua":         "print(1)\n",
		"tools/odd.luau":          "return 1\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := Default()
	c.Root = root
	for rel, want := range map[string][]string{
		"game/src/init.lua": {"luau-lsp"},
		"game/src/mod.luau": {"luau-lsp"},
		"tools/build.lua":   {"lua-language-server"},
		"tools/odd.luau":    nil,
	} {
		var got []string
		for _, s := range c.ServersForPath(filepath.Join(root, filepath.FromSlash(rel))) {
			got = append(got, s.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: served by %v, want %v", rel, got, want)
		}
	}
	if dir, ok := MarkerDir(filepath.Join(root, "game", "src", "mod.luau"), rojoMarkers, root); !ok || dir != filepath.Join(root, "game") {
		t.Errorf("MarkerDir = %q, %v; want the project's directory", dir, ok)
	}
}

// TestSettleFor: a server whose signal of a complete answer is in use
// gets its own window whatever the check asks; one without a signal, or
// whose signal is not in use, gets the check's window, its own as the
// floor.
func TestSettleFor(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name       string
		server     Server
		asked      time.Duration
		signalling bool
		want       time.Duration
	}{
		{"signals, no window, a write asks 150 ms", Server{DoneSignal: SignalPull}, 150 * ms, true, 0},
		{"signals, no window, an edit asks 15 ms", Server{DoneSignal: SignalProgress}, 15 * ms, true, 0},
		{"signals, a window of its own", Server{DoneSignal: SignalTsserver, Settle: 5 * ms}, 150 * ms, true, 5 * ms},
		{"in order, no window, a write asks 150 ms", Server{DoneSignal: SignalInOrder, InOrderArg: "--sync"}, 150 * ms, true, 0},
		{"in order, but run without its argument: the check's window", Server{DoneSignal: SignalInOrder, InOrderArg: "--sync"}, 15 * ms, false, 15 * ms},
		{"signal not in use: the check's window", Server{DoneSignal: SignalTsserver}, 150 * ms, false, 150 * ms},
		{"signal not in use: its floor over an edit's window", Server{DoneSignal: SignalPull, Settle: 100 * ms}, 15 * ms, false, 100 * ms},
		{"no signals: the check's window", Server{}, 150 * ms, true, 150 * ms},
		{"no signals: its floor over an edit's window", Server{Settle: 100 * ms}, 15 * ms, false, 100 * ms},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.server.SettleFor(tt.asked, tt.signalling); got != tt.want {
				t.Errorf("SettleFor(%v, %v) = %v, want %v", tt.asked, tt.signalling, got, tt.want)
			}
		})
	}
	for _, s := range Catalogue() {
		switch s.Name {
		case "gopls", "pyright", "typescript-language-server", "clangd":
			if s.DoneSignal == SignalNone || s.Settle != 0 {
				t.Errorf("catalogue %s: DoneSignal %q, Settle %v; want its signal and no window (the catalogue's evidence)", s.Name, s.DoneSignal, s.Settle)
			}
		}
	}
}

// TestMarkerFile: a root marker's file name is the marker, or its part
// before "#" for a marker that also wants a key set in the file.
func TestMarkerFile(t *testing.T) {
	for _, tc := range []struct{ marker, want string }{
		{"go.mod", "go.mod"},
		{"package.json#workspaces", "package.json"},
		{"pyproject.toml#tool.uv.workspace", "pyproject.toml"},
		{"*.project.json", "*.project.json"},
	} {
		if got := MarkerFile(tc.marker); got != tc.want {
			t.Errorf("MarkerFile(%q) = %q, want %q", tc.marker, got, tc.want)
		}
	}
}

// TestNamesMarker: a file names a root marker by its base name — the
// marker's file, or a name its glob matches; a keyed marker by its file,
// whatever it holds; a directory's name or a longer name does not.
func TestNamesMarker(t *testing.T) {
	markers := []string{"go.mod", "package.json#workspaces", "*.project.json"}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"/w/sub/go.mod", true},
		{"/w/sub/package.json", true},
		{"/w/apps/web/app.project.json", true},
		{"/w/project.json", false}, // the glob wants something before ".project.json"
		{"/w/go.mod.bak", false},
		{"/w/go.mod/x.go", false},
		{"/w/tsconfig.json", false},
	} {
		if got := NamesMarker(tc.path, markers); got != tc.want {
			t.Errorf("NamesMarker(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	if NamesMarker("/w/go.mod", nil) {
		t.Error("NamesMarker with no markers = true")
	}
}

// TestKeyedMarkerChanges: a keyed marker's answer is remembered only until
// its file changes: a package.json that gains "workspaces" makes its
// directory the root from then on, and one that loses it no longer does.
func TestKeyedMarkerChanges(t *testing.T) {
	root := testdir.New(t)
	file := filepath.Join(root, "package.json")
	src := filepath.Join(root, "packages", "a", "x.ts")
	markers := []string{"package.json#workspaces", "tsconfig.json"}
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{`{"name": "mono"}`, `{"name": "mono", "workspaces": ["packages/*"]}`, `{"name": "monorepo"}`} {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, got := MarkerDir(src, markers, root)
		if want := i == 1; got != want {
			t.Errorf("package.json %s: found = %v, want %v", text, got, want)
		}
	}
}

// TestIsProjectFile: names match exactly, globs by path.Match, against
// the base name.
func TestIsProjectFile(t *testing.T) {
	s := Server{ProjectFiles: []string{"tsconfig.json", "tsconfig.*.json"}}
	for path, want := range map[string]bool{
		"/r/tsconfig.json": true, "/r/pkg/tsconfig.base.json": true, "/r/tsconfig.json.bak": false,
		"/r/tsconfig.base.json/x.ts": false, "/r/mytsconfig.json": false,
	} {
		if got := s.IsProjectFile(path); got != want {
			t.Errorf("IsProjectFile(%s) = %v, want %v", path, got, want)
		}
	}
}
