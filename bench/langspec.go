package main

import (
	"context"
	"fmt"
	"github.com/lsp-hook/lsp-hook/config"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/lsp"
)

// langSpec is one live language of part 3: its project under
// testdata/langs, the file the edits go to, the server whose log records
// are read, the line each edit appends, and the command a hook-writer
// without lsp-hook would run after every edit instead.
type langSpec struct {
	key    string // its name in -langs
	name   string // as shown in the report
	dir    string // project, relative to -langs-dir
	target string // edited file, slash-separated, relative to the project
	// other is a file of the project the edits do not go to, in another
	// package, module or translation unit than target (section 8's file
	// the user touched last, in its second case), slash-separated.
	other  string
	server string // catalogue name of the server that checks target
	// settle is the settle window the daemon waits after the server's
	// signals for an Edit shown errors-only (engine.Engine.Check asks for
	// lsp.EditSettle; config.Server.SettleFor gives the server's own:
	// none for a server whose signals say when its answer is complete,
	// clangd's 150 ms), from the catalogue (settleOf).
	settle time.Duration
	tools  []string
	// decl is the line edit i appends: a type error when broken, its fix
	// when not, with a value new at every i so no cache can answer it.
	decl func(i int, broken bool) string
	// baseline is the hook-writer's command for the project at dir (absolute
	// path of the project, target absolute) and a note on the choice ("" when
	// none); an error when its program is missing.
	baseline func(dir, target string) (argv []string, note string, err error)
	// marker is how the baseline's output places an error on line of the
	// target: "main.go:12:", "main.ts(9,".
	marker func(target string, line int) string
}

// colonMarker is "file:line:", the gcc-style position go vet, pyright and
// gcc print.
func colonMarker(target string, line int) string {
	return fmt.Sprintf("%s:%d:", filepath.Base(target), line)
}

// langSpecs are the four live languages of issue 3, in report order. Each
// type error is one every checker calls an error (not a warning): a string
// where an int or number is declared, or a void value returned as an int.
var langSpecs = []langSpec{
	{
		key: "go", name: "Go", dir: "go", target: "main.go", other: "greet/greet.go", server: "gopls", settle: settleOf("gopls"),
		tools: []string{"gopls version", "go version"},
		decl:  goDecl,
		baseline: func(dir, target string) ([]string, string, error) {
			return []string{"go", "vet", "./..."}, "", nil
		},
		marker: colonMarker,
	},
	{
		key: "py", name: "Python", dir: "py", target: "main.py", other: "greet.py", server: "pyright", settle: settleOf("pyright"),
		tools: []string{"pyright --version"},
		decl: func(i int, broken bool) string {
			return fmt.Sprintf("lsp_hook_bench: int = %s", value(i, broken, `"%d"`))
		},
		baseline: func(dir, target string) ([]string, string, error) {
			return lookArgv("pyright", filepath.Base(target))
		},
		marker: colonMarker,
	},
	{
		// settle 0: its diagnostics are pulled from tsserver, complete as they come.
		key: "ts", name: "TypeScript", dir: "ts", target: "src/main.ts", other: "src/greet.ts", server: "typescript-language-server",
		tools: []string{"typescript-language-server --version", "tsc --version"},
		decl: func(i int, broken bool) string {
			return fmt.Sprintf("export const lspHookBench: number = %s;", value(i, broken, `"%d"`))
		},
		baseline: func(dir, target string) ([]string, string, error) {
			return lookArgv("tsc", "--noEmit", "-p", ".")
		},
		marker: func(target string, line int) string {
			return fmt.Sprintf("%s(%d,", filepath.Base(target), line) // tsc: src/main.ts(9,14): error TS2322
		},
	},
	{
		key: "c", name: "C", dir: "c", target: "main.c", other: "greet.c", server: "clangd", settle: settleOf("clangd"),
		tools: []string{"clangd --version"},
		decl: func(i int, broken bool) string {
			return fmt.Sprintf("int lsp_hook_bench(void) { return %s; }", value(i, broken, `greet("%d")`))
		},
		baseline: cBaseline,
		marker:   colonMarker,
	},
}

// goDecl is the declaration a Go edit appends, in part 2 and in part 3.
func goDecl(i int, broken bool) string {
	return fmt.Sprintf("var lspHookBench int = %s", value(i, broken, `"%d"`))
}

// value is i formatted, or formatted by broken's format when broken.
func value(i int, broken bool, brokenFormat string) string {
	if broken {
		return fmt.Sprintf(brokenFormat, i)
	}
	return fmt.Sprint(i)
}

// lookArgv is argv when its program is on PATH.
func lookArgv(argv ...string) ([]string, string, error) {
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, "", fmt.Errorf("%s is not on PATH (make tools; PATH=$PWD/.tools/npm/node_modules/.bin:$PATH)", argv[0])
	}
	return argv, "", nil
}

// cBaseline is `clang -fsyntax-only` with the project's compile_flags.txt,
// the compiler clangd itself is, or gcc's when clang is not installed (the
// bench says so: make tools installs clangd, not clang).
func cBaseline(dir, target string) ([]string, string, error) {
	cc, note := "clang", ""
	if _, err := exec.LookPath(cc); err != nil {
		cc, note = "gcc", "clang not installed; using gcc -fsyntax-only"
		if _, err := exec.LookPath(cc); err != nil {
			return nil, "", fmt.Errorf("neither clang nor gcc is on PATH")
		}
	}
	argv := []string{cc, "-fsyntax-only"}
	data, err := os.ReadFile(filepath.Join(dir, "compile_flags.txt"))
	if err != nil && !os.IsNotExist(err) {
		return nil, "", fmt.Errorf("reading compile_flags.txt: %w", err)
	}
	argv = append(argv, strings.Fields(string(data))...)
	return append(argv, filepath.Base(target)), note, nil
}

// toolVersions runs each "program args" of l.tools and joins the first
// lines of their output; a program that fails shows as "program ?".
func (b *bench) toolVersions(ctx context.Context, l langSpec) string {
	var parts []string
	for _, t := range l.tools {
		f := strings.Fields(t)
		out, err := output(ctx, "", b.env, f[0], f[1:]...)
		v := firstLine([]byte(out), err)
		if v == "?" {
			v = f[0] + " ?"
		} else if !strings.Contains(strings.ToLower(v), strings.ToLower(f[0])) {
			v = f[0] + " " + v
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, " · ")
}

// settleOf is the settle window of the catalogue's server name for an
// Edit shown errors-only (config.Server.SettleFor of lsp.EditSettle).
func settleOf(name string) time.Duration {
	for _, s := range config.Catalogue() {
		if s.Name == name {
			return s.SettleFor(lsp.EditSettle, true) // a catalogue server, its signal in use
		}
	}
	return lsp.EditSettle
}
