package mcp

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/lsp"
)

// The fuzz targets of this file check the decoders of a tool's position
// (a line's symbol, "name#N") and of the answers servers give (locations,
// hover, symbols) on their own; fuzz_tool_test.go drives whole tool calls.

// FuzzSymbolColumn checks symbolColumn against a count of its own: the
// column it returns starts the symbol's N-th non-overlapping occurrence,
// and the line has fewer when it fails.
func FuzzSymbolColumn(f *testing.F) {
	for _, s := range [][2]string{
		{"from greet import greet", "greet#2"}, {"\tfmt.Println(greet.Greet(\"world\"))", "Greet"},
		{"s := \"日本\" + name", "name"}, {"a#b := 1", "a#b"}, {"aaaa", "aa#2"}, {"x := 1", "#2"}, {"x#1", "x#1#1"},
		{"a😀b😀", "😀#2"}, {"\xffa", "a#0"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, line, symbol string) {
		name, n := parseSymbol(symbol)
		if n < 1 || name == "" && symbol != "" {
			t.Fatalf("parseSymbol(%q) = %q, %d", symbol, name, n)
		}
		col, err := symbolColumn(line, symbol, 1)
		count := 0
		if name != "" {
			count = strings.Count(line, name)
		}
		if err != nil {
			// Invalid UTF-8 can hold the symbol's bytes inside a
			// character, which is no occurrence.
			if count >= n && utf8.ValidString(line) && utf8.ValidString(name) {
				t.Fatalf("symbolColumn(%q, %q) failed with %d occurrences: %v", line, symbol, count, err)
			}
			return
		}
		if col < 1 || col > utf8.RuneCountInString(line)+1 {
			t.Fatalf("symbolColumn(%q, %q) = %d, outside the line", line, symbol, col)
		}
		off := len(string([]rune(line)[:col-1]))
		if utf8.ValidString(line) && (!strings.HasPrefix(line[off:], name) || strings.Count(line[:off], name) != n-1) {
			t.Fatalf("symbolColumn(%q, %q) = %d, not the start of occurrence %d", line, symbol, col, n)
		}
		for _, enc := range []string{lsp.EncodingUTF16, lsp.EncodingUTF8, lsp.EncodingUTF32} {
			if back := lsp.Column([]byte(line), lsp.Character([]byte(line), col, enc), enc); back != col {
				t.Fatalf("column %d of %q → %s → %d", col, line, enc, back)
			}
		}
	})
}

// whereRE matches a rendered location's "path:line:col".
var whereRE = regexp.MustCompile(`^\s*(.*?):(\d+):(\d+)`)

// FuzzAnswers renders arbitrary definition, hover and symbol results the
// way the tools do: no panic, every decoded location rendered with a
// 1-based line and column, lists capped.
func FuzzAnswers(f *testing.F) {
	root := f.TempDir()
	src := "package p\n\n// Greet says 日本 🙂.\nfunc Greet(name string) string { return name }\n"
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte(src), 0o644); err != nil {
		f.Fatal(err)
	}
	uri := fileURI(filepath.Join(root, "a.go"))
	for _, s := range []string{
		`{"uri":"URI","range":{"start":{"line":3,"character":5},"end":{"line":3,"character":10}}}`,
		`[{"uri":"URI","range":{"start":{"line":2,"character":14},"end":{"line":2,"character":16}}},{"uri":"file:///nonexistent/x.go","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}]`,
		`[{"targetUri":"URI","targetRange":{"start":{"line":3,"character":0},"end":{"line":3,"character":40}},"targetSelectionRange":{"start":{"line":3,"character":5},"end":{"line":3,"character":10}}}]`,
		`{"contents":{"kind":"markdown","value":"func Greet(name string) string"}}`,
		`{"contents":["a",{"language":"go","value":"func Greet()"}]}`,
		`[{"name":"Greet","kind":12,"detail":"func","selectionRange":{"start":{"line":3,"character":5},"end":{"line":3,"character":10}},"children":[{"name":"name","kind":13,"selectionRange":{"start":{"line":3,"character":11},"end":{"line":3,"character":15}}}]}]`,
		`[{"name":"Greet","kind":12,"containerName":"p","location":{"uri":"URI","range":{"start":{"line":3,"character":5},"end":{"line":3,"character":10}}}},{"name":"x","kind":99,"location":{"uri":"URI"}}]`,
		`null`, `"file:///a.go"`, `[{"name":"x"}]`, `{"uri":"http://x","range":{"start":{"line":4294967295,"character":4294967295},"end":{"line":0,"character":0}}}`,
	} {
		f.Add([]byte(strings.ReplaceAll(s, "URI", uri)), uint8(0))
	}
	f.Fuzz(func(t *testing.T, raw []byte, enc uint8) {
		r := newRenderer(root, []string{lsp.EncodingUTF16, lsp.EncodingUTF8, lsp.EncodingUTF32}[int(enc)%3])
		if locs, err := decodeLocations(raw); err == nil {
			out := r.locations(locs, maxReferences)
			lines := strings.Split(out, "\n")
			if len(locs) > 0 && len(lines) != min(len(locs), maxReferences+1) {
				t.Fatalf("%d locations rendered as %d lines", len(locs), len(lines))
			}
			for i, l := range lines[:min(len(locs), maxReferences)] {
				if _, err := uriPath(locs[i].URI); err != nil {
					continue
				}
				checkWhere(t, l)
			}
		}
		if s, err := hoverText(raw); err == nil && utf8.RuneCountInString(s) > maxHover+1 {
			t.Fatalf("hover of %d characters", utf8.RuneCountInString(s))
		}
		if out, err := r.symbols(raw, uri); err == nil && out != "" {
			lines := strings.Split(out, "\n")
			if len(lines) > maxSymbols+1 {
				t.Fatalf("%d symbol lines", len(lines))
			}
			for _, l := range lines[:min(len(lines), maxSymbols)] {
				if whereRE.MatchString(l) {
					checkWhere(t, l)
				}
			}
		}
	})
}

// checkWhere checks that a rendered "path:line:col" is 1-based.
func checkWhere(t *testing.T, l string) {
	t.Helper()
	m := whereRE.FindStringSubmatch(l)
	if m == nil {
		t.Fatalf("location rendered without path:line:col: %q", l)
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	if line < 1 || col < 1 {
		t.Fatalf("location %q is not 1-based", l)
	}
}

// FuzzExpand checks lsp_diagnostics's path argument: whatever file or
// glob it names, every file it resolves to lies inside the workspace.
func FuzzExpand(f *testing.F) {
	dir := f.TempDir()
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		f.Fatal(err)
	}
	root = filepath.Join(root, "ws")
	for _, p := range []string{"a.go", "src/b.ts", "src/deep/c.ts", ".git/config", "node_modules/m/i.js"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x\n"), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(root), "secret.go"), []byte("s\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(root, "up")); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"a.go", "src/**/*.ts", "**/*", "../*.go", "src/../../*.go", "up/*.go", "up/**", root + "/src/*",
		"/etc/*", "{a,../secret}.go", "[", "./**/*.go", "src/deep/../../up/secret.go"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		tl := &tools{root: root}
		paths, err := tl.expand(pattern)
		if err != nil {
			return
		}
		for _, p := range paths {
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				real = filepath.Clean(p)
			}
			if real != root && !strings.HasPrefix(real, root+"/") {
				t.Fatalf("%q expands to %s, outside the workspace %s", pattern, p, root)
			}
		}
	})
}
