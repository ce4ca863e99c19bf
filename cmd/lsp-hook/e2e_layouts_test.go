package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCMakeCompileDB: a CMake project (testdata/cmake-project) whose
// headers are found through the include directories only its compilation
// database, build/compile_commands.json, names. An edit of a header that
// breaks both files including it lists both, as `clang -fsyntax-only`
// with each file's command from the database reports them; the fix lists
// nothing. Without the database's include directories, no includer was
// found and opened, and clangd said nothing of them: the edit was
// answered clean.
func TestCMakeCompileDB(t *testing.T) {
	e2e(t)
	requireExe(t, "clangd")
	requireExe(t, "clang")
	w := newWorkspaceOf(t, "cmake-project", "", []string{"PATH=" + langPath()})
	build := filepath.Join(w.root, "build")
	type entry struct {
		Directory string `json:"directory"`
		Command   string `json:"command"`
		File      string `json:"file"`
	}
	var db []entry
	for _, f := range []string{"src/add.c", "src/main.c"} {
		src := filepath.Join(w.root, filepath.FromSlash(f))
		db = append(db, entry{Directory: build, File: src,
			Command: "/usr/bin/cc -I" + filepath.Join(w.root, "include") + " -O2 -o CMakeFiles/x.dir/" + filepath.Base(f) + ".o -c " + src})
	}
	text, err := json.MarshalIndent(db, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(build, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(build, "compile_commands.json"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	truth := func() []compilerErr {
		var all []compilerErr
		for _, e := range db {
			args := strings.Fields(e.Command)
			args = append([]string{"-fsyntax-only"}, args[1:len(args)-4]...) // the flags, without -o … -c …
			errs, _, _ := compile(t, w.root, nil, cErrRE, "clang", append(args, e.File)...)
			for i := range errs {
				if rel, err := filepath.Rel(w.root, errs[i].file); err == nil && filepath.IsAbs(errs[i].file) {
					errs[i].file = filepath.ToSlash(rel)
				}
			}
			all = append(all, errs...)
		}
		return all
	}
	const header = "include/mathx/add.h"
	original := mustRead(t, filepath.Join(w.root, filepath.FromSlash(header)))
	w.judgeEdits(t, header, []judgedStep{ // clang's errors over both files
		{"a comment", original + "/* unchanged */\n", 0},
		{"mathx_add takes three", strings.Replace(original, "int mathx_add(int a, int b);", "int mathx_add(int a, int b, int c);", 1), 2},
		{"fixed", original, 0},
	}, truth)
}
