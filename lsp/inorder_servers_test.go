package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// deepFiles is a C project whose src/deep.c reaches models.h through
// three other headers, and ten more headers include models.h directly
// (deepFan): past the importers a check re-checks (maxRecheckDependents,
// the nearest), so only clangd's own rebuild of the open files after
// didSave reports what a change of models.h broke in it.
var deepFiles = deepFan(map[string]string{
	"compile_flags.txt": "-std=c11\n-Iinclude\n",
	"include/models.h":  "#ifndef MODELS_H\n#define MODELS_H\nvoid make_user(const char *name);\n#endif\n",
	"include/l1.h":      "#include \"models.h\"\n",
	"include/l2.h":      "#include \"l1.h\"\n",
	"include/l3.h":      "#include \"l2.h\"\n",
	"src/deep.c":        "#include \"l3.h\"\n\nvoid reg(void) { make_user(\"ada\"); }\n",
})

// deepFan adds to files maxRecheckDependents headers beside models.h that
// include it, named to come before l1.h in the importer search's order.
func deepFan(files map[string]string) map[string]string {
	for i := range maxRecheckDependents {
		files[fmt.Sprintf("include/a%02d.h", i)] = "#include \"models.h\"\n"
	}
	return files
}

// deepModels is models.h with make_user given a second parameter.
const deepModels = "#ifndef MODELS_H\n#define MODELS_H\nvoid make_user(const char *name, int age);\n#endif\n"

// TestClangdInOrderOthers checks that a check of a clangd run in order
// (--sync, config.SignalInOrder) ends only after clangd has answered
// everything the change set off: a header change's check lists the open
// file clangd re-published after didSave though no importer search
// found it, with the errors clang -fsyntax-only reports there — both
// when the change breaks it and when the revert mends it (no ghost).
// Without the request sent after the change, the check ended on the
// header's own publication, before clangd rebuilt src/deep.c. Three
// fresh servers, two changes each, 0 failures allowed.
func TestClangdInOrderOthers(t *testing.T) {
	requireServer(t, "clangd")
	for round := range 3 {
		dir := workspace(t, deepFiles)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		srv := catalogueServer(t, "clangd")
		cl := startClient(ctx, t, srv, dir)
		if !cl.signalling() {
			t.Fatalf("clangd %v: the in-order signal is not in use", srv.Command)
		}
		deep := filepath.Join(dir, "src", "deep.c")
		models := filepath.Join(dir, "include", "models.h")
		if o := cl.Update(ctx, []Doc{{Path: deep}}, DefaultSettle); o.Freshness != Fresh {
			t.Fatalf("round %d: opening src/deep.c: %s, %v", round, o.Freshness, o.Err)
		}
		for i, text := range []string{deepModels, deepFiles["include/models.h"]} {
			what := fmt.Sprintf("round %d, change %d", round, i)
			writeFile(t, dir, "include/models.h", text)
			truth := clangErrors(t, dir, "src/deep.c")["src/deep.c"]
			if (i == 0) == (len(truth) == 0) {
				t.Fatalf("%s: clang reports %v in src/deep.c", what, truth)
			}
			rctx, rcancel := context.WithTimeout(ctx, 10*time.Second) // a hook's budget
			o := cl.Update(rctx, []Doc{{Path: models}}, DefaultSettle)
			rcancel()
			if o.Freshness != Fresh || o.Err != nil {
				t.Fatalf("%s: %s, %v; want fresh", what, o.Freshness, o.Err)
			}
			got, listed := o.Others[deep]
			if !listed && len(truth) > 0 {
				t.Errorf("%s: src/deep.c not listed; clang reports errors at %v", what, truth)
			} else if listed && !slices.Equal(positions(got), truth) {
				t.Errorf("%s: src/deep.c errors at %v, the compiler's at %v", what, positions(got), truth)
			}
		}
	}
}

// deepModelsSameSize is models.h with make_user given a second parameter
// in exactly as many bytes as deepFiles' models.h: clangd 14 takes a
// header whose size and modification time, in whole seconds, are those it
// built a preamble with for unchanged (clang's
// PrecompiledPreamble::CanReuse), so this text, written within the second
// of the first, does not rebuild a preamble that has the first.
const deepModelsSameSize = "#ifndef MODELS_H\n#define MODELS_H\nvoid make_user(char *nam, int a);\n#endif\n"

// TestClangdSameSecondHeader plays a header written twice within one
// second with the same size: src/deep.c, four includes away from
// models.h (past the importers a check re-opens), was built with the
// first text; the check of the second must list deep.c with the errors
// clang -fsyntax-only reports, though clangd, rebuilding deep.c after the
// header's didSave, reuses its preamble. Three fresh servers; the
// header's modification time is set to the first text's, to the
// nanosecond, so the second always falls where the race puts it.
func TestClangdSameSecondHeader(t *testing.T) {
	requireServer(t, "clangd")
	if len(deepModelsSameSize) != len(deepFiles["include/models.h"]) {
		t.Fatalf("the two texts of models.h differ in size: %d, %d", len(deepModelsSameSize), len(deepFiles["include/models.h"]))
	}
	for round := range 3 {
		dir := workspace(t, deepFiles)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cl := startClient(ctx, t, catalogueServer(t, "clangd"), dir)
		deep := filepath.Join(dir, "src", "deep.c")
		models := filepath.Join(dir, "include", "models.h")
		// Well inside one second: models.h's first text, deep.c's build.
		time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second + 20*time.Millisecond)))
		first := time.Now()
		if err := os.Chtimes(models, first, first); err != nil {
			t.Fatal(err)
		}
		if o := cl.Update(ctx, []Doc{{Path: deep}}, DefaultSettle); o.Freshness != Fresh {
			t.Fatalf("round %d: opening src/deep.c: %s, %v", round, o.Freshness, o.Err)
		}
		writeFile(t, dir, "include/models.h", deepModelsSameSize)
		if err := os.Chtimes(models, first, first); err != nil {
			t.Fatal(err)
		}
		truth := clangErrors(t, dir, "src/deep.c")["src/deep.c"]
		if len(truth) == 0 {
			t.Fatalf("round %d: clang reports no error in src/deep.c", round)
		}
		rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
		o := cl.Update(rctx, []Doc{{Path: models}}, DefaultSettle)
		rcancel()
		if o.Freshness != Fresh || o.Err != nil {
			t.Fatalf("round %d: %s, %v; want fresh", round, o.Freshness, o.Err)
		}
		if got := positions(o.Others[deep]); !slices.Equal(got, truth) {
			t.Errorf("round %d: src/deep.c errors at %v, the compiler's at %v", round, got, truth)
		}
		if time.Since(first) > 900*time.Millisecond {
			t.Logf("round %d took %v: past the second it played", round, time.Since(first))
		}
	}
}
