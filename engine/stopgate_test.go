package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/testdir"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestBlindSpot: the texts before a session show the servers the state
// before unless the session deleted a file, changed a C header or changed
// a Go file's build constraint; a header put back as it was, and a Go
// file changed below its constraint, are no blind spot.
func TestBlindSpot(t *testing.T) {
	dir := testdir.New(t)
	testdir.WriteTree(t, dir, map[string]string{
		"greet.h":   "void greet(const char *name, int n);\n",
		"same.h":    "void same(void);\n",
		"main.c":    "int main(void) { return 0; }\n",
		"gen.go":    "//go:build ignore\n\npackage main\n",
		"body.go":   "//go:build linux\n\npackage p\n\nvar x = 2\n",
		"assets.go": "package p\n\nimport \"embed\"\n\n//go:embed banner.txt motd.txt\nvar fs embed.FS\n",
		"files.go":  "package p\n\nimport \"embed\"\n\n// Files are files.\n//go:embed banner.txt\nvar files embed.FS\n",
	})
	gen, body := filepath.Join(dir, "gen.go"), filepath.Join(dir, "body.go")
	assets, files := filepath.Join(dir, "assets.go"), filepath.Join(dir, "files.go")
	header, same, code := filepath.Join(dir, "greet.h"), filepath.Join(dir, "same.h"), filepath.Join(dir, "main.c")
	gone := filepath.Join(dir, "gone.py")
	befores := map[string][]byte{header: []byte("void greet(const char *name);\n"), same: []byte("void same(void);\n"), code: []byte("int main(void) { return 1; }\n"),
		gen: []byte("package main\n"), body: []byte("//go:build linux\n\npackage p\n\nvar x = 1\n"),
		assets: []byte("package p\n\nimport \"embed\"\n\n//go:embed banner.txt\nvar fs embed.FS\n"),
		files:  []byte("package p\n\nimport \"embed\"\n\n//go:embed banner.txt\nvar files embed.FS\n")}
	change := func(paths ...string) []wire.Change {
		var out []wire.Change
		for _, p := range paths {
			out = append(out, wire.Change{Path: p})
		}
		return out
	}
	tests := []struct {
		name    string
		changes []wire.Change
		want    string // a word the reason holds; "" for none
	}{
		{"a source file changed", change(code), ""},
		{"a header changed", change(code, header), "greet.h"},
		{"a header as it was", change(same), ""},
		{"a file deleted", change(code, gone), "gone.py"},
		{"a Go file given a build constraint", change(code, gen), "gen.go"},
		{"a Go file changed below its constraint", change(body), ""},
		{"a Go file given a //go:embed pattern", change(code, assets), "assets.go"},
		{"a Go file changed around its //go:embed patterns", change(files), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := blindSpot(tt.changes, befores)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("blindSpot = %q, want one naming %q", got, tt.want)
			}
		})
	}
}

// TestJudgeFile: the Stop gate's judgement of one file. The errors are
// tsserver's of the soak's renamed module (seed 7598964929262669485, Stop
// #22): a baseline the session's hooks kept after the session had broken
// the file makes its error unsure, never old and silent.
func TestJudgeFile(t *testing.T) {
	broken := diag.Diagnostic{Path: "/w/src/api.ts", Line: 2, Column: 22, Severity: diag.SeverityError, Code: "2307", Source: "typescript",
		Message: "Cannot find module './service' or its corresponding type declarations."}
	other := diag.Diagnostic{Path: "/w/src/api.ts", Line: 5, Column: 3, Severity: diag.SeverityError, Code: "2304", Source: "typescript",
		Message: "Cannot find name 'x'."}
	warning := diag.Diagnostic{Path: "/w/src/api.ts", Line: 7, Column: 1, Severity: diag.SeverityWarning, Source: "typescript", Message: "unused"}
	ds := func(d ...diag.Diagnostic) []diag.Diagnostic { return d }
	tests := []struct {
		name                  string
		now, base             []diag.Diagnostic
		known                 bool
		first                 []diag.Diagnostic
		seen, changed         bool
		wantIntro, wantUnsure int
		wantUnchecked         bool
	}{
		{"new error", ds(broken), nil, true, nil, false, true, 1, 0, false},
		{"error there before, unchanged file", ds(broken), ds(broken), true, nil, false, false, 0, 1, false},
		{"error there before, changed file", ds(broken), ds(broken), true, nil, false, true, 0, 1, false},
		{"texts before held it, hooks' clean baseline takes it out", ds(broken), ds(broken), true, nil, true, false, 1, 0, false},
		{"texts before and hooks' baseline both held it (soak's renamed module)", ds(broken), ds(broken), true, ds(broken), true, true, 0, 1, false},
		{"hooks' baseline alone, error there", ds(broken), nil, false, ds(broken), true, false, 0, 1, false},
		{"hooks' baseline alone, a second error", ds(broken, other), nil, false, ds(broken), true, false, 1, 0, false},
		{"no answer for a changed file's text before", ds(broken), nil, false, nil, false, true, 0, 0, true},
		{"no baseline for another file", ds(broken), nil, false, nil, false, false, 0, 0, false},
		{"warnings are not judged", ds(warning), nil, true, nil, false, true, 0, 0, false},
		{"clean", nil, ds(broken), true, nil, false, true, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := judgeFile(tt.now, tt.base, tt.known, tt.first, tt.seen, tt.changed)
			if len(v.introduced) != tt.wantIntro || len(v.unsure) != tt.wantUnsure || v.unchecked != tt.wantUnchecked {
				t.Errorf("judgeFile = %d introduced, %d unsure, unchecked %v; want %d, %d, %v",
					len(v.introduced), len(v.unsure), v.unchecked, tt.wantIntro, tt.wantUnsure, tt.wantUnchecked)
			}
		})
	}
}
