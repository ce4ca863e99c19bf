package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/internal/fileuri"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/mcp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The refactoring tools against real servers on real code: for Go,
// golang.org/x/sync from the module cache with a package of ours that
// uses it; for TypeScript and Python, testdata/langs with a file of
// shapes. Every navigation answer is compared with what the server
// answers to the same request sent raw through the daemon's `request`;
// every write is judged by the compiler (go build, tsc, pyright).

// at is a position in a file: path, 1-based line, the symbol on it.
type at struct {
	path   string
	line   int
	symbol string
}

func (a at) args() map[string]any {
	return map[string]any{"path": a.path, "line": a.line, "symbol": a.symbol}
}

// refactorCase is what one language's refactoring tools are tried on.
type refactorCase struct {
	lang, server string
	files        func(t *testing.T) map[string]string // the workspace's files
	typeDef      at
	impl         at
	callee       at // incoming calls of it
	caller       at // outgoing calls from it
	rename       at
	newName      string
	moveFrom     string // a file to move (new_path), "" for none
	moveTo       string
	// checkEdit changes checkFile's old to new, which breaks brokenFile.
	checkFile, old, new, brokenFile string
	// fixFile is written with an error a code action on fixLine fixes
	// (the action whose title holds fixTitle); "" for none.
	fixFile, fixText, fixTitle string
	fixLine                    int
	build                      func(t *testing.T, root string) // fails the test unless the workspace builds clean
}

const goSync = "v0.22.0"

// goJobs uses errgroup's SetLimit: a caller the check_edit case breaks.
const goJobs = `package jobs

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// Run runs fns, two at a time.
func Run(ctx context.Context, fns []func(context.Context) error) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	for _, f := range fns {
		g.Go(func() error { return f(ctx) })
	}
	return g.Wait()
}
`

const tsShapes = `export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(private side: number) {}
  area(): number {
    return this.side * this.side;
  }
}

export function total(shapes: Shape[]): number {
  return shapes.reduce((sum, s) => sum + s.area(), 0);
}

export const unit = new Square(1);
`

const pyShapes = `class Shape:
    def area(self) -> float:
        raise NotImplementedError


class Square(Shape):
    def __init__(self, side: float) -> None:
        self.side = side

    def area(self) -> float:
        return self.side * self.side


def total(shapes: list[Shape]) -> float:
    return sum(s.area() for s in shapes)


unit = Square(1.0)
`

var refactorCases = []refactorCase{
	{
		lang: "go", server: "gopls", files: goSyncFiles,
		typeDef: at{"errgroup/errgroup.go", 79, "g"}, impl: at{"singleflight/singleflight.go", 24, "panicError"},
		callee: at{"errgroup/errgroup.go", 36, "done"}, caller: at{"errgroup/errgroup.go", 55, "Wait"},
		rename: at{"errgroup/errgroup.go", 36, "done"}, newName: "finish",
		checkFile: "errgroup/errgroup.go", old: "func (g *Group) SetLimit(n int) {", new: "func (g *Group) SetLimit(n int, strict bool) {", brokenFile: "jobs/jobs.go",
		fixFile: "jobs/fix.go", fixText: "package jobs\n\nfunc limit() {\n\tvar g errgroup.Group\n\tg.SetLimit(1)\n}\n", fixLine: 4, fixTitle: "errgroup",
		build: goBuild,
	},
	{
		lang: "ts", server: "typescript-language-server", files: langFiles("ts", map[string]string{"src/shapes.ts": tsShapes}),
		typeDef: at{"src/shapes.ts", 16, "unit"}, impl: at{"src/shapes.ts", 1, "Shape"},
		callee: at{"src/greet.ts", 2, "greet"}, caller: at{"src/loud.ts", 4, "loud"},
		rename: at{"src/greet.ts", 2, "greet"}, newName: "hello", moveFrom: "src/greet.ts", moveTo: "src/greeting.ts",
		checkFile: "src/greet.ts", old: "greet(name: string)", new: "greet(name: string, times: number)", brokenFile: "src/main.ts",
		fixFile: "src/fix.ts", fixText: "export const n = total([]);\n", fixLine: 1, fixTitle: "./shapes",
		build: tscBuild,
	},
	{
		lang: "py", server: "pyright-langserver", files: langFiles("py", map[string]string{"shapes.py": pyShapes}),
		typeDef: at{"shapes.py", 18, "unit"}, impl: at{"shapes.py", 2, "area"},
		callee: at{"greet.py", 4, "greet"}, caller: at{"loud.py", 6, "loud"},
		rename: at{"greet.py", 4, "greet"}, newName: "hello", moveFrom: "loud.py", moveTo: "shout.py",
		checkFile: "greet.py", old: "def greet(name: str) -> str:", new: "def greet(name: str, times: int) -> str:", brokenFile: "main.py",
		build: pyrightBuild,
	},
}

func TestRefactoring(t *testing.T) {
	for _, rc := range refactorCases {
		t.Run(rc.lang, func(t *testing.T) {
			requireServer(t, rc.server)
			root, cs, socket := refactorSession(t, rc.files(t))
			rq := func(path, method string, params any) (wire.RequestResult, error) {
				return rawRequest(t, socket, filepath.Join(root, path), method, params)
			}
			t.Run("locations", func(t *testing.T) {
				for _, c := range []struct {
					tool, method string
					pos          at
				}{
					{mcp.ToolTypeDefinition, "textDocument/typeDefinition", rc.typeDef},
					{mcp.ToolImplementation, "textDocument/implementation", rc.impl},
				} {
					got, isErr := call(t, cs, c.tool, c.pos.args())
					raw, err := rq(c.pos.path, c.method, positionParams(t, root, c.pos))
					compareLocations(t, root, c.tool, got, isErr, raw, err)
				}
			})
			t.Run("calls", func(t *testing.T) {
				compareCalls(t, root, cs, rq, rc.callee, true)
				compareCalls(t, root, cs, rq, rc.caller, false)
			})
			t.Run("check_edit", func(t *testing.T) { checkEditCase(t, root, cs, rc) })
			t.Run("code_actions", func(t *testing.T) { codeActionCase(t, root, cs, rq, rc) })
			t.Run("rename", func(t *testing.T) { renameCase(t, root, cs, rq, rc) })
		})
	}
}

// refactorSession writes files into a fresh workspace (a git repository)
// and serves a daemon and an MCP server for it, as session does; it also
// returns the daemon's socket, for raw requests.
func refactorSession(t *testing.T, files map[string]string) (string, *sdk.ClientSession, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	socket := serveDaemon(t, root)
	return root, connect(t, root, socket, true), socket
}

// goSyncFiles is golang.org/x/sync from the module cache (downloaded when
// missing) and the package jobs.
func goSyncFiles(t *testing.T) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "golang.org", "x", "sync@"+goSync)
	if _, err := os.Stat(src); err != nil {
		if out, err := exec.Command("go", "mod", "download", "golang.org/x/sync@"+goSync).CombinedOutput(); err != nil {
			t.Skipf("golang.org/x/sync@%s is not in the module cache and could not be downloaded: %v\n%s", goSync, err, out)
		}
	}
	files := map[string]string{"jobs/jobs.go": goJobs}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(p) != ".go" && d.Name() != "go.mod") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(src, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// langFiles is testdata/langs/<lang> plus extra.
func langFiles(lang string, extra map[string]string) func(t *testing.T) map[string]string {
	return func(t *testing.T) map[string]string {
		dir := filepath.Join("..", "testdata", "langs", lang)
		files := make(map[string]string)
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range extra {
			files[k] = v
		}
		return files
	}
}

// run runs a command in root and fails the test with its output when it
// fails.
func run(t *testing.T, root string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = root, append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s %s after the edit: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func goBuild(t *testing.T, root string) {
	run(t, root, []string{"GOTOOLCHAIN=local", "GOFLAGS=-mod=mod"}, "go", "vet", "./...")
}
func tscBuild(t *testing.T, root string) { run(t, root, nil, "tsc", "--noEmit", "-p", ".") }
func pyrightBuild(t *testing.T, root string) {
	run(t, root, nil, "pyright", "--pythonversion", "3.11", ".")
}

// rawRequest sends an LSP request to the server for path through the
// daemon's `request`, unconverted: what the server itself answers.
func rawRequest(t *testing.T, socket, path, method string, params any) (wire.RequestResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c, err := wire.Dial(ctx, socket, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	var res wire.RequestResult
	err = c.Call(ctx, wire.MethodRequest, wire.RequestParams{Path: path, Method: method, Params: raw}, &res)
	return res, err
}

// positionParams is the LSP TextDocumentPositionParams of a: the files
// are ASCII, so the character is the 0-based column in every encoding.
func positionParams(t *testing.T, root string, a at) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, a.path))
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Split(string(b), "\n")[a.line-1]
	col := strings.Index(line, a.symbol)
	if col < 0 {
		t.Fatalf("%s:%d has no %q: %s", a.path, a.line, a.symbol, line)
	}
	return map[string]any{
		"textDocument": map[string]any{"uri": fileuri.FromPath(filepath.Join(root, a.path))},
		"position":     map[string]any{"line": a.line - 1, "character": col},
	}
}

// where renders a raw LSP location as the tools do: rel:line:col, 1-based
// (ASCII files: the column is the character plus one).
func where(t *testing.T, root, uri string, line, char int) string {
	t.Helper()
	p, err := fileuri.ToPath(uri)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s:%d:%d", workspace.Display(root, p), line+1, char+1)
}

// isUnsupported reports whether err is the daemon's "the server lacks the
// capability".
func isUnsupported(err error) bool {
	var je *jsonrpc2.Error
	return errors.As(err, &je) && je.Code == wire.CodeUnsupported
}

// compareLocations checks a location tool's answer against the server's
// raw answer: every location it gave, or the same refusal when it lacks
// the capability, or "No …" when it found nothing.
func compareLocations(t *testing.T, root, tool, got string, isErr bool, raw wire.RequestResult, err error) {
	t.Helper()
	switch {
	case isUnsupported(err):
		if !isErr || !strings.Contains(got, "does not support") {
			t.Errorf("%s = %q (error %v); the server lacks the capability (%v), want that said", tool, got, isErr, err)
		}
		return
	case err != nil:
		t.Fatalf("raw request for %s: %v", tool, err)
	case isErr:
		t.Fatalf("%s: %s", tool, got)
	}
	var locs []struct {
		URI       string `json:"uri"`
		TargetURI string `json:"targetUri"`
		Range     struct {
			Start struct{ Line, Character int }
		} `json:"range"`
		TargetSelectionRange struct {
			Start struct{ Line, Character int }
		} `json:"targetSelectionRange"`
	}
	r := bytes.TrimSpace(raw.Result)
	if len(r) > 0 && r[0] == '{' {
		r = append(append([]byte("["), r...), ']')
	}
	if string(r) != "null" {
		if err := json.Unmarshal(r, &locs); err != nil {
			t.Fatalf("raw %s result %s: %v", tool, raw.Result, err)
		}
	}
	if len(locs) == 0 {
		if !strings.HasPrefix(got, "No ") {
			t.Errorf("%s = %q; the server found nothing, want No …", tool, got)
		}
		return
	}
	for _, l := range locs {
		w := where(t, root, l.URI, l.Range.Start.Line, l.Range.Start.Character)
		if l.TargetURI != "" {
			w = where(t, root, l.TargetURI, l.TargetSelectionRange.Start.Line, l.TargetSelectionRange.Start.Character)
		}
		if !strings.Contains(got, w) {
			t.Errorf("%s = %q, want the server's location %s in it", tool, got, w)
		}
	}
	t.Logf("%s: %d location(s), as the server answered:\n%s", tool, len(locs), got)
}

// compareCalls checks lsp_incoming_calls (or outgoing) at a against the
// server's own prepareCallHierarchy and incomingCalls (outgoingCalls)
// answers: the same count, and every call site or callee.
func compareCalls(t *testing.T, root string, cs *sdk.ClientSession, rq func(string, string, any) (wire.RequestResult, error), a at, incoming bool) {
	t.Helper()
	tool, method := mcp.ToolOutgoingCalls, "callHierarchy/outgoingCalls"
	if incoming {
		tool, method = mcp.ToolIncomingCalls, "callHierarchy/incomingCalls"
	}
	got, isErr := call(t, cs, tool, a.args())
	prep, err := rq(a.path, "textDocument/prepareCallHierarchy", positionParams(t, root, a))
	if isUnsupported(err) {
		if !isErr || !strings.Contains(got, "does not support") {
			t.Errorf("%s = %q; the server lacks call hierarchy, want that said", tool, got)
		}
		return
	}
	if err != nil || isErr {
		t.Fatalf("%s = %q (error %v); raw prepare: %v", tool, got, isErr, err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(prep.Result, &items); err != nil || len(items) == 0 {
		t.Fatalf("prepareCallHierarchy at %v = %s: want items (%v)", a, prep.Result, err)
	}
	total := 0
	var want []string
	for _, it := range items {
		res, err := rq(a.path, method, map[string]any{"item": it})
		if err != nil {
			t.Fatal(err)
		}
		var calls []struct {
			From, To *struct {
				URI            string `json:"uri"`
				SelectionRange struct {
					Start struct{ Line, Character int }
				} `json:"selectionRange"`
			}
			FromRanges []struct {
				Start struct{ Line, Character int }
			} `json:"fromRanges"`
		}
		if err := json.Unmarshal(res.Result, &calls); err != nil {
			t.Fatalf("%s = %s: %v", method, res.Result, err)
		}
		for _, c := range calls {
			if incoming {
				for _, fr := range c.FromRanges {
					total++
					want = append(want, where(t, root, c.From.URI, fr.Start.Line, fr.Start.Character))
				}
			} else {
				total++
				want = append(want, where(t, root, c.To.URI, c.To.SelectionRange.Start.Line, c.To.SelectionRange.Start.Character))
			}
		}
	}
	if total == 0 {
		if !strings.HasPrefix(got, "No calls") {
			t.Errorf("%s = %q; the server found none, want No calls …", tool, got)
		}
		return
	}
	if !strings.HasPrefix(got, fmt.Sprintf("%d ", total)) {
		t.Errorf("%s = %q, want %d calls as the server answered", tool, got, total)
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s = %q, want the server's %s in it", tool, got, w)
		}
	}
	t.Logf("%s: %d, as the server answered:\n%s", tool, total, got)
}

// snapshot reads every file under root (but .git) into a map.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := make(map[string]string)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFiles(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, b := range before {
		if a, ok := after[p]; !ok || a != b {
			t.Errorf("%s changed %s", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s created %s", what, p)
		}
	}
}

// checkEditCase: a signature change reports the broken caller, changes
// no file, and leaves the servers' view as the disk: the caller checked
// next (from disk, as the next hook checks it) is clean, where the tried
// signature would break it.
func checkEditCase(t *testing.T, root string, cs *sdk.ClientSession, rc refactorCase) {
	before := snapshot(t, root)
	got, isErr := call(t, cs, mcp.ToolCheckEdit, map[string]any{"path": rc.checkFile, "old_string": rc.old, "new_string": rc.new})
	if isErr || !strings.Contains(got, fmt.Sprintf(`<diagnostics file="%s">`, rc.brokenFile)) || !strings.Contains(got, "ERROR") {
		t.Errorf("check_edit = %q (error %v), want an error in the broken caller %s", got, isErr, rc.brokenFile)
	}
	t.Logf("check_edit:\n%s", got)
	sameFiles(t, "check_edit", before, snapshot(t, root))
	for _, f := range []string{rc.brokenFile, rc.checkFile} {
		if d, isErr := call(t, cs, mcp.ToolDiagnostics, map[string]any{"path": f}); isErr || !strings.HasPrefix(d, "No diagnostics") {
			t.Errorf("diagnostics of %s after check_edit = %q (error %v), want none: the servers must hold the disk's text again", f, d, isErr)
		}
	}
	got, isErr = call(t, cs, mcp.ToolCheckEdit, map[string]any{"path": rc.checkFile, "old_string": "no such text here"})
	if !isErr || !strings.Contains(got, "old_string is not in") {
		t.Errorf("check_edit of a missing old_string = %q (error %v), want it refused", got, isErr)
	}
	got, isErr = call(t, cs, mcp.ToolCheckEdit, map[string]any{"path": "../outside.go", "content": "x"})
	if !isErr || !strings.Contains(got, "outside the workspace") {
		t.Errorf("check_edit outside the workspace = %q (error %v), want it refused", got, isErr)
	}
}

// codeActionCase lists the actions at a line with an error and compares
// their titles with the server's own answer; with a fix file, applies the
// fix (preview first: nothing written) and builds.
func codeActionCase(t *testing.T, root string, cs *sdk.ClientSession, rq func(string, string, any) (wire.RequestResult, error), rc refactorCase) {
	path, line := rc.fixFile, rc.fixLine
	if path == "" {
		path, line = rc.callee.path, rc.callee.line
	} else if err := os.WriteFile(filepath.Join(root, path), []byte(rc.fixText), 0o644); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"path": path, "line": line}
	got, isErr := call(t, cs, mcp.ToolCodeActions, args)
	if isErr {
		t.Fatalf("code actions: %s", got)
	}
	b, _ := os.ReadFile(filepath.Join(root, path))
	text := strings.Split(string(b), "\n")[line-1]
	raw, err := rq(path, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fileuri.FromPath(filepath.Join(root, path))},
		"range":        map[string]any{"start": map[string]any{"line": line - 1, "character": 0}, "end": map[string]any{"line": line - 1, "character": len(text)}},
		"context":      map[string]any{"triggerKind": 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	var acts []struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal(raw.Result, &acts); err != nil && string(raw.Result) != "null" {
		t.Fatal(err)
	}
	for _, a := range acts {
		if !strings.Contains(got, " "+a.Title) {
			t.Errorf("code actions = %q, want the server's %q", got, a.Title)
		}
	}
	if len(acts) == 0 && !strings.HasPrefix(got, "No code actions") {
		t.Errorf("code actions = %q; the server offers none", got)
	}
	t.Logf("code actions (%d from the server):\n%s", len(acts), got)
	if rc.fixFile == "" {
		return
	}
	before := snapshot(t, root)
	args["apply"] = rc.fixTitle
	got, isErr = call(t, cs, mcp.ToolCodeActions, args)
	if isErr || !strings.Contains(got, "Preview of code action") || !strings.Contains(got, "+++ b/"+path) {
		t.Errorf("code action preview = %q (error %v), want a diff of %s", got, isErr, path)
	}
	sameFiles(t, "code action preview", before, snapshot(t, root))
	args["write"] = true
	got, isErr = call(t, cs, mcp.ToolCodeActions, args)
	if isErr || !strings.Contains(got, "Applied code action") || !strings.Contains(got, "No diagnostics") {
		t.Errorf("code action write = %q (error %v), want it applied and clean", got, isErr)
	}
	t.Logf("code action write:\n%s", got)
	rc.build(t, root)
}

// renameCase renames a symbol (preview: nothing written; write: the
// compiler passes), then moves a file where the server updates what
// refers to it.
func renameCase(t *testing.T, root string, cs *sdk.ClientSession, rq func(string, string, any) (wire.RequestResult, error), rc refactorCase) {
	before := snapshot(t, root)
	args := rc.rename.args()
	args["new_name"] = rc.newName
	got, isErr := call(t, cs, mcp.ToolRename, args)
	hunk := regexp.MustCompile(`(?m)^\+.*\b` + rc.newName + `\b`)
	if isErr || !strings.HasPrefix(got, "Preview of renaming") || !hunk.MatchString(got) {
		t.Fatalf("rename preview = %q (error %v), want a diff adding %s", got, isErr, rc.newName)
	}
	sameFiles(t, "rename preview", before, snapshot(t, root))
	raw, err := rq(rc.rename.path, "textDocument/rename", func() map[string]any {
		p := positionParams(t, root, rc.rename)
		p["newName"] = rc.newName
		return p
	}())
	if err != nil {
		t.Fatal(err)
	}
	for _, uri := range regexp.MustCompile(`"(file://[^"]+)"`).FindAllStringSubmatch(string(raw.Result), -1) {
		p, _ := fileuri.ToPath(uri[1])
		if rel := workspace.Display(root, p); !strings.Contains(got, "+++ b/"+rel) {
			t.Errorf("rename preview = %q, want the server's edit of %s", got, rel)
		}
	}
	args["write"] = true
	got, isErr = call(t, cs, mcp.ToolRename, args)
	if isErr || !strings.HasPrefix(got, "Applied renaming") || !strings.Contains(got, "No diagnostics") {
		t.Errorf("rename write = %q (error %v), want it applied and clean", got, isErr)
	}
	t.Logf("rename:\n%s", got)
	rc.build(t, root)
	if rc.moveFrom == "" {
		return
	}
	before = snapshot(t, root)
	move := map[string]any{"path": rc.moveFrom, "new_path": rc.moveTo}
	got, isErr = call(t, cs, mcp.ToolRename, move)
	sameFiles(t, "file rename preview", before, snapshot(t, root))
	params := map[string]any{"files": []map[string]string{{"oldUri": fileuri.FromPath(filepath.Join(root, rc.moveFrom)), "newUri": fileuri.FromPath(filepath.Join(root, rc.moveTo))}}}
	if _, err := rq(rc.moveFrom, "workspace/willRenameFiles", params); isUnsupported(err) {
		if !isErr || !strings.Contains(got, "does not support workspace/willRenameFiles") {
			t.Errorf("file rename = %q (error %v); the server lacks willRenameFiles, want that said", got, isErr)
		}
		return
	}
	if isErr || !strings.Contains(got, "rename from "+rc.moveFrom) {
		t.Fatalf("file rename preview = %q (error %v), want the move in the diff", got, isErr)
	}
	move["write"] = true
	got, isErr = call(t, cs, mcp.ToolRename, move)
	if _, err := os.Stat(filepath.Join(root, rc.moveTo)); isErr || err != nil {
		t.Fatalf("file rename write = %q (error %v); %s: %v", got, isErr, rc.moveTo, err)
	}
	t.Logf("file rename:\n%s", got)
	rc.build(t, root)
}
