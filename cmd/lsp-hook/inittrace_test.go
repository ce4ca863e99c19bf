package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every command is one binary, so every package's init runs at the start
// of each `lsp-hook hook`, once per agent edit (issue 18, "Hook process
// start"). Two guards keep that start lean, neither timed: the hook's own
// init trace, and the source of lsp-hook's packages.

// heavyAtInit are packages whose init did work no hook needs, and that
// must not run at the hook's start at all: urfave/cli's man-page writer
// (left out with the urfave_cli_no_docs tag; its markdown package built
// tables of 214 KB).
var heavyAtInit = []string{
	"github.com/russross/blackfriday/v2",
	"github.com/cpuguy83/go-md2man/v2/md2man",
}

// ownInitBudget is the bytes lsp-hook's own packages may allocate at init,
// together, in the hook's start: their error values, tables and maps
// (about 35 KB now). A regexp or a JSON schema compiled at init costs tens
// of KB and takes it over (the parsers alone were 391 KB before).
const ownInitBudget = 64 << 10

// TestHookInitTrace runs a hook, the built-in validators in-process, with
// GODEBUG=inittrace=1 (the runtime's line per package init: "init PKG @T
// ms, C ms clock, B bytes, N allocs") and holds it to heavyAtInit and
// ownInitBudget. Bytes and allocations, unlike the clock, are the same on
// every run.
func TestHookInitTrace(t *testing.T) {
	e2e(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(file, []byte("{\"a\": [1,],}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := json.Marshal(map[string]any{
		"session_id": "inittrace", "cwd": dir, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": file, "content": ""}, "tool_response": map[string]any{"filePath": file},
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lspHook, "hook", "claude", "--no-daemon")
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(ev)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "XDG_RUNTIME_DIR="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("lsp-hook hook claude: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "bad.json") {
		t.Fatalf("the hook did not check bad.json: %q", stdout.String())
	}
	inits := parseInitTrace(t, stderr.Bytes())
	if len(inits) == 0 {
		t.Fatalf("no init trace on stderr: %q", stderr.String())
	}
	own := 0
	for _, in := range inits {
		for _, heavy := range heavyAtInit {
			if in.pkg == heavy {
				t.Errorf("%s runs its init at the hook's start (%d bytes, %d allocs): keep it out of the binary or lazy", in.pkg, in.bytes, in.allocs)
			}
		}
		if strings.HasPrefix(in.pkg, "github.com/lsp-hook/lsp-hook/") {
			own += in.bytes
		}
	}
	if own > ownInitBudget {
		for _, in := range inits {
			if strings.HasPrefix(in.pkg, "github.com/lsp-hook/lsp-hook/") {
				t.Logf("%s: %d bytes, %d allocs", in.pkg, in.bytes, in.allocs)
			}
		}
		t.Errorf("lsp-hook's packages allocate %d bytes at init, over %d: make the new work lazy (sync.OnceValue, internal/lazyre)", own, ownInitBudget)
	}
}

// initLine is one line of GODEBUG=inittrace=1.
type initLine struct {
	pkg           string
	bytes, allocs int
}

// parseInitTrace reads the "init PKG @0.5 ms, 0.01 ms clock, 432 bytes, 5
// allocs" lines of stderr; other lines are skipped.
func parseInitTrace(t *testing.T, stderr []byte) []initLine {
	t.Helper()
	var out []initLine
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, errB := strconv.Atoi(f[7])
		a, errA := strconv.Atoi(f[9])
		if errB != nil || errA != nil {
			t.Fatalf("unreadable init trace line %q", sc.Text())
		}
		out = append(out, initLine{pkg: f[1], bytes: b, allocs: a})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// lazyAtInit are the calls that must not initialize a package-level
// variable in lsp-hook's code: each compiles at every process start, the
// hook's included. Use internal/lazyre or sync.OnceValue.
var lazyAtInit = map[string]bool{
	"regexp.MustCompile": true, "regexp.Compile": true, "regexp.MustCompilePOSIX": true,
	"template.Must": true, "jsonschema.NewCompiler": true,
}

// TestNoCompileAtInit reads the non-test Go files of every lsp-hook
// package linked into the binary (go list -deps ./cmd/lsp-hook) and fails
// on a package-level var initialized by a call in lazyAtInit.
func TestNoCompileAtInit(t *testing.T) {
	list := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \"\\t\"}}{{end}}", "./cmd/lsp-hook")
	list.Dir = moduleRoot
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/lsp-hook: %v", err)
	}
	fset := token.NewFileSet()
	checked := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) < 3 || !strings.HasPrefix(f[0], "github.com/lsp-hook/lsp-hook") {
			continue
		}
		for _, name := range f[2:] {
			checkNoCompileAtInit(t, fset, filepath.Join(f[1], name))
			checked++
		}
	}
	if checked == 0 {
		t.Fatalf("go list named no lsp-hook files: %q", out)
	}
}

// checkNoCompileAtInit fails t for each package-level var of path whose
// initializer calls one of lazyAtInit outside a func literal.
func checkNoCompileAtInit(t *testing.T, fset *token.FileSet, path string) {
	t.Helper()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		ast.Inspect(gd, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false // runs when called, not at init
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && lazyAtInit[x.Name+"."+sel.Sel.Name] {
					t.Errorf("%s: a package-level var calls %s.%s at init: make it lazy (internal/lazyre or sync.OnceValue)",
						fset.Position(call.Pos()), x.Name, sel.Sel.Name)
				}
			}
			return true
		})
	}
}
