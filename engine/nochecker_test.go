package engine

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestNoCheckerNotes: a source file nothing checked is noted — nothing
// covers its language, or its language servers are not installed — in
// full once per session and language, in one short line after; a file
// something checked, a file that is not a program's source, and a server
// that answered are not. Every file
// nothing checked is listed (wire.Result.Unchecked), noted or not.
func TestNoCheckerNotes(t *testing.T) {
	root := t.TempDir()
	e := &Engine{Root: root, Config: config.Default()}
	tgt := func(rel string) target {
		return target{path: filepath.Join(root, rel), rel: rel}
	}
	missing := []wire.ServerResult{{Name: "ruby-lsp", Kind: wire.KindServer, State: lsp.StateUnavailable}}
	goplsMissing := []wire.ServerResult{{Name: "gopls", Kind: wire.KindServer, State: lsp.StateUnavailable}}
	answered := []wire.ServerResult{{Name: "ruby-lsp", Kind: wire.KindServer, State: lsp.StateActive, Freshness: string(lsp.Fresh)}}
	for _, tc := range []struct {
		name    string
		session string
		targets []target
		servers []wire.ServerResult
		linted  []string // the files a linter ran for in the check, relative
		want    []string // substrings of each note, in order
		paths   []string // the files not checked, relative, in order
	}{
		{"server not installed", "s1", []target{tgt("a.rb")}, missing, nil,
			[]string{"a.rb not checked: the language server for ruby files (.rb) is not installed: ruby-lsp (gem install ruby-lsp)"}, []string{"a.rb"}},
		{"the same session again: one short line", "s1", []target{tgt("b.rb")}, missing, nil,
			[]string{"b.rb not checked: ruby-lsp not installed, as noted earlier in this session"}, []string{"b.rb"}},
		{"another session", "s2", []target{tgt("b.rb")}, missing, nil, []string{"b.rb not checked"}, []string{"b.rb"}},
		{"no session: each time", "", []target{tgt("a.rb")}, missing, nil, []string{"a.rb not checked"}, []string{"a.rb"}},
		{"no session: each time, again", "", []target{tgt("a.rb")}, missing, nil, []string{"a.rb not checked"}, []string{"a.rb"}},
		{"the server answered", "s3", []target{tgt("a.rb")}, answered, nil, nil, nil},
		{"the server not asked: taken as checking", "s3", []target{tgt("a.rb")}, nil, nil, nil, nil},
		{"nothing covers the language", "s4", []target{tgt("x.fsx"), tgt("y.fs")}, nil, nil,
			[]string{"x.fsx not checked: no language server, validator or linter here checks fsharp files (.fsx)"}, []string{"x.fsx", "y.fs"}},
		{"the same session, nothing covers it again", "s4", []target{tgt("z.fsx")}, nil, nil,
			[]string{"z.fsx not checked: nothing here checks fsharp files (.fsx), as noted earlier in this session"}, []string{"z.fsx"}},
		{"not a program's source", "s5", []target{tgt("README.md"), tgt("notes.txt"), tgt("Makefile")}, nil, nil, nil, nil},
		{"a validator checks it", "s5", []target{tgt("a.json")}, nil, nil, nil, nil},
		{"a notebook: its JSON validated, its code cells checked by nothing", "s9", []target{tgt("a.ipynb")}, nil, nil,
			[]string{"a.ipynb: only its JSON was checked; nothing here checks the jupyter-notebook code in it"}, []string{"a.ipynb"}},
		{"a notebook again in the session", "s9", []target{tgt("b.ipynb")}, nil, nil,
			[]string{"b.ipynb: its jupyter-notebook code not checked, as noted earlier in this session"}, []string{"b.ipynb"}},
		{"a linter ran for it", "s5", []target{tgt("run.sh")}, nil, []string{"run.sh"}, nil, nil},
		{"a linter configured for it did not run (its program missing)", "s5b", []target{tgt("run.sh")}, nil, nil,
			[]string{"run.sh not checked: no language server, validator or linter here checks shellscript files (.sh)"}, []string{"run.sh"}},
		{"gopls not installed; go-vet runs only in diagnose", "s7", []target{tgt("main.go")}, goplsMissing, nil,
			[]string{"main.go not checked: the language server for go files (.go) is not installed: gopls (lsp-hook servers install gopls)"}, []string{"main.go"}},
		{"gopls not installed; a linter ran for the file", "s8", []target{tgt("main.go")}, goplsMissing, []string{"main.go"}, nil, nil},
		{"two languages", "s6", []target{tgt("a.rb"), tgt("x.fsx"), tgt("b.rb")}, missing, nil,
			[]string{"a.rb not checked", "x.fsx not checked"}, []string{"a.rb", "x.fsx", "b.rb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			linted := make(map[string]bool)
			for _, rel := range tc.linted {
				linted[filepath.Join(root, rel)] = true
			}
			got, paths := e.noCheckerNotes(tc.session, tc.targets, tc.servers, linted)
			var rels []string
			for _, p := range paths {
				rel, _ := filepath.Rel(root, p)
				rels = append(rels, rel)
			}
			if !slices.Equal(rels, tc.paths) {
				t.Errorf("files not checked = %q, want %q", rels, tc.paths)
			}
			ok := len(got) == len(tc.want)
			for i := 0; ok && i < len(got); i++ {
				ok = strings.Contains(got[i], tc.want[i])
			}
			if !ok {
				t.Errorf("notes = %q, want ones holding %q", got, tc.want)
			}
		})
	}
}

// TestNoCheckerNotedBounded: past maxNoCheckerNoted pairs the engine
// forgets them and notes again, so its memory stays bounded.
func TestNoCheckerNotedBounded(t *testing.T) {
	e := &Engine{}
	for i := range maxNoCheckerNoted {
		if !e.firstNoCheckerNote(strings.Repeat("s", i+1), "ruby") {
			t.Fatalf("pair %d noted before", i)
		}
	}
	if e.firstNoCheckerNote("s", "ruby") {
		t.Fatal("a remembered pair noted again before the bound")
	}
	e.firstNoCheckerNote("new", "ruby") // past the bound: forgets
	if len(e.noCheckerNoted) != 1 || !e.firstNoCheckerNote("s", "ruby") {
		t.Errorf("after the bound: %d remembered, want 1 and the old pair noted again", len(e.noCheckerNoted))
	}
}
