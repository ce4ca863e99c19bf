package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPrewarmGoplsOtherPackage: with a real gopls on testdata/langs/go,
// Prewarm of the file the user touched last (greet/greet.go, a package
// main.go imports) opens that file alone; the session's first edit then
// goes to main.go, a document
// gopls has never had open, and its answer is what `go build` says of the
// same files, the type error at its line and column and nothing else.
// This is the case whose first edit keeps gopls's `go mod tidy` (see
// Prewarm): the test pins what the answer says, not how long it takes.
func TestPrewarmGoplsOtherPackage(t *testing.T) {
	requireServer(t, "gopls")
	dir := tempDir(t)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "langs", "go"))); err != nil {
		t.Fatal(err)
	}
	m, ctx := realManager(t, dir)
	greet, main := filepath.Join(dir, "greet", "greet.go"), filepath.Join(dir, "main.go")
	if got := m.Prewarm([]string{greet, main}); len(got) != 1 || !strings.HasPrefix(got[0], "gopls ") {
		t.Fatalf("Prewarm = %q, want gopls started once", got)
	}
	m.bg.Wait() // the warm-up, the one background task Prewarm started
	var open []string
	for _, c := range m.readyClients() {
		for _, d := range c.openDocuments() {
			open = append(open, d.path)
		}
	}
	if !slices.Equal(open, []string{greet}) {
		t.Fatalf("open after prewarm: %q, want %s alone", open, greet)
	}

	text, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"main.go": string(text) + "\nvar lspHookBench int = \"0\"\n"})
	truth := goBuildErrors(t, dir)
	if len(truth["main.go"]) != 1 || len(truth) != 1 {
		t.Fatalf("go build reports %v, want main.go's one error", truth)
	}
	out := m.Check(ctx, []Doc{diskDoc(t, main)}, DefaultSettle)
	if len(out) != 1 || out[0].Freshness != Fresh {
		t.Fatalf("first edit after prewarm: %s, %v", outFreshness(out), outErr(out))
	}
	var got []string
	for _, d := range errorsOf(out[0].Files[main]) {
		got = append(got, fmt.Sprintf("%d:%d", d.Line, d.Column))
	}
	if !slices.Equal(got, truth["main.go"]) {
		t.Errorf("main.go's errors at %q, go build's at %q: %+v", got, truth["main.go"], out[0].Files[main])
	}
	for p, ds := range out[0].Others {
		if len(errorsOf(ds)) > 0 {
			t.Errorf("%s: errors %+v, go build reports none there", p, errorsOf(ds))
		}
	}
}
