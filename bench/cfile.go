package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// This file is section 11, cfile (issue 18, "C at least as fast as the
// compiler"): part 3's warm C edit and its baseline, `clang -fsyntax-only`
// on the same file, on a real C file rather than testdata/langs/c's small
// one: Go's own regexp/testdata/testregex.c (AT&T's regex test driver,
// 2,286 lines), which every Go installation ships, so the bench needs no
// download. It is compiled as C99 (compile_flags.txt: -std=c99, which
// keeps glibc's getline out of <stdio.h>: the file declares its own). Each
// edit appends `int lsp_hook_bench(void) { return (void)N; }` (an error in
// every C compiler) or its fix, `return N;`.

// secCFile is 11: a warm C edit vs clang -fsyntax-only on a real file.
const secCFile section = "cfile"

// cFileSpec is the C language of part 3 with testregex.c as its target.
func cFileSpec() langSpec {
	var spec langSpec
	for _, l := range langSpecs {
		if l.key == "c" {
			spec = l
		}
	}
	spec.name, spec.dir, spec.target = "C (testregex.c)", "", "testregex.c"
	spec.decl = func(i int, broken bool) string {
		return fmt.Sprintf("int lsp_hook_bench(void) { return %s; }", value(i, broken, "(void)%d"))
	}
	return spec
}

// cFileSection measures section 11; the result's skipped says why when
// testregex.c or a compiler is missing.
func (b *bench) cFileSection(ctx context.Context) (langResult, error) {
	spec := cFileSpec()
	src := filepath.Join(runtime.GOROOT(), "src", "regexp", "testdata", "testregex.c")
	if goroot, err := output(ctx, "", b.env, "go", "env", "GOROOT"); err == nil {
		src = filepath.Join(goroot, "src", "regexp", "testdata", "testregex.c")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return langResult{spec: spec, skipped: fmt.Sprintf("reading %s: %v", src, err)}, nil
	}
	b.progressf("11. C edits on Go's regexp/testdata/testregex.c (1 + %d runs)", b.opts.langN)
	ws := &workspace{name: "$GOROOT/src/regexp/testdata/testregex.c", dir: filepath.Join(b.tmp, "cfile")}
	b.workspaces = append(b.workspaces, ws)
	ws.target, ws.orig = filepath.Join(ws.dir, spec.target), withNewline(data)
	files := map[string]string{spec.target: string(ws.orig), "compile_flags.txt": "-std=c99\n"}
	if err := writeFiles(ws.dir, files); err != nil {
		return langResult{spec: spec}, err
	}
	if _, err := output(ctx, ws.dir, b.env, "git", "init", "-q"); err != nil {
		return langResult{spec: spec}, err
	}
	return b.langEditIn(ctx, spec, ws)
}
