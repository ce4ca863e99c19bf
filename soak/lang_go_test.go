package soak

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goSyncVersion is the golang.org/x/sync that lsp-hook's go.mod requires,
// so the module cache holds it wherever lsp-hook builds.
const goSyncVersion = "v0.22.0"

// goModule is the module path the copy gets: its own module, not x/sync.
const goModule = "soak.example/sync"

// goLanguage is a copy of golang.org/x/sync (four packages and their
// tests) made its own module, with a package jobs added that uses three
// of them, checked by gopls and the go command.
func goLanguage() *language {
	return &language{
		name:       "go",
		tools:      []string{"go", "gopls", "gofmt"},
		files:      goFiles,
		compile:    compileGo,
		format:     []string{"gofmt", "-w"},
		formatExts: []string{".go"},
		comment:    slashComment,
		scenarios:  goScenarios,
	}
}

// goFiles copies golang.org/x/sync@goSyncVersion out of the module cache,
// renames the module to goModule, and adds goJobs.
func goFiles(t *testing.T) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "golang.org", "x", "sync@"+goSyncVersion)
	if _, err := os.Stat(src); err != nil {
		dl := exec.Command("go", "mod", "download", "golang.org/x/sync@"+goSyncVersion)
		if out, err := dl.CombinedOutput(); err != nil {
			t.Skipf("golang.org/x/sync@%s is not in the module cache and could not be downloaded: %v\n%s", goSyncVersion, err, out)
		}
	}
	files := make(map[string]string)
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(p) != ".go" && d.Name() != "go.mod") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		files[filepath.ToSlash(rel)] = strings.ReplaceAll(string(b), "golang.org/x/sync", goModule)
		return nil
	})
	if err != nil {
		t.Fatalf("copying golang.org/x/sync: %v", err)
	}
	for rel, content := range goJobs {
		files[rel] = content
	}
	return files
}

// goJobs is the package the soak adds to the module: a user of errgroup,
// semaphore and singleflight, in two files, and a file embedding a text
// file (//go:embed).
var goJobs = map[string]string{
	"jobs/jobs.go": `// Package jobs runs batches of functions with the module's errgroup,
// semaphore and singleflight.
package jobs

import (
	"context"

	"soak.example/sync/errgroup"
	"soak.example/sync/semaphore"
	"soak.example/sync/singleflight"
)

// Limited runs fns, at most n at once, and returns the first error.
func Limited(ctx context.Context, n int64, fns []func() error) error {
	sem := semaphore.NewWeighted(scale(n))
	g, ctx := errgroup.WithContext(ctx)
	for _, f := range fns {
		if err := sem.Acquire(ctx, 1); err != nil {
			return err
		}
		g.Go(func() error {
			defer sem.Release(1)
			return f()
		})
	}
	return g.Wait()
}

var flights singleflight.Group

// Once calls f for key unless a call for key is in flight, then forgets
// key.
func Once(key string, f func() (any, error)) (any, error) {
	v, err, _ := flights.Do(key, f)
	flights.Forget(key)
	return v, err
}
`,
	"jobs/assets.go": `package jobs

import "embed"

// Assets are the files shown before a batch runs.
//
//go:embed banner.txt
var Assets embed.FS
`,
	"jobs/banner.txt": "jobs: running a batch\n",
	"jobs/helpers.go": `package jobs

// scale returns the weight a limit of n allows: at least 1.
func scale(n int64) int64 {
	return max(n, 1)
}
`,
}

const goScale = `
// scale returns the weight a limit of n allows: at least 1.
func scale(n int64) int64 {
	return max(n, 1)
}
`

// goGen is a generator program of package jobs's directory, left out of
// the build (//go:build ignore), with decl in its main.
func goGen(decl string) string {
	return "//go:build ignore\n\n// gen prints the weight a limit of 4 allows.\npackage main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\n\t\"soak.example/sync/jobs\"\n)\n\nfunc main() {\n\t" +
		decl + "\n\tfmt.Println(jobs.Limited(context.Background(), n, nil))\n}\n"
}

var goScenarios = []scenario{
	// The module's configuration breaks files the edit does not touch:
	// at language version 1.20, the min and max builtins (1.21) and
	// every later feature the copy uses are errors (gopls reloads go.mod
	// itself; the go command reads it on each build).
	{"older-go-configured", steps(
		edit("go.mod", "\ngo 1.25.0\n", "\ngo 1.20\n"),
		revert("go.mod"))},
	configWritten("semaphore/semaphore.go", "w := &Weighted{size: n}", `w := &Weighted{size: "n"}`),
	createdLater("jobs/helpers.go", []string{"return max(n, 1)", "return max(n, extra())"},
		"jobs/extra.go", "package jobs\n\n// extra is the least weight.\nfunc extra() int64 { return 1 }\n"),
	// A package directory renamed (one watcher event, for the
	// directory): jobs's import of singleflight breaks.
	{"directory-moved", steps(moveDir("singleflight", "flight"), moveDir("flight", "singleflight"))},
	{"local-type", steps(
		edit("semaphore/semaphore.go", "w := &Weighted{size: n}", `w := &Weighted{size: "n"}`),
		revert("semaphore/semaphore.go"))},
	{"local-return", steps(
		edit("jobs/jobs.go", "\treturn v, err\n", "\treturn v, err, nil\n"),
		edit("jobs/jobs.go", "\treturn v, err, nil\n", "\treturn v, err\n"))},
	{"errgroup-broken", steps(
		edit("errgroup/errgroup.go", "g.sem = make(chan token, n)", `g.sem = make(chan token, "n")`),
		revert("errgroup/errgroup.go"))},
	{"signature-change", steps(
		edit("semaphore/semaphore.go", "func NewWeighted(n int64) *Weighted {", "func NewWeighted(n int64, name string) *Weighted {"),
		revert("semaphore/semaphore.go"))},
	{"renamed-export", []step{
		{edit("singleflight/singleflight.go", "func (g *Group) Forget(key string) {", "func (g *Group) ForgetKey(key string) {")},
		{edit("jobs/jobs.go", "flights.Forget(key)", "flights.ForgetKey(key)"),
			edit("singleflight/singleflight_test.go", `g.Forget("key")`, `g.ForgetKey("key")`)},
		{revert("singleflight/singleflight.go")},
		{revert("jobs/jobs.go"), revert("singleflight/singleflight_test.go")},
	}},
	// The definition and its callers change in one step (one shell
	// command, a batch, or one call each): clean; the callers turned back
	// alone break every one of them, in files the hook may not name.
	{"renamed-everywhere", []step{
		{edit("singleflight/singleflight.go", "func (g *Group) Forget(key string) {", "func (g *Group) ForgetKey(key string) {"),
			edit("jobs/jobs.go", "flights.Forget(key)", "flights.ForgetKey(key)"),
			edit("singleflight/singleflight_test.go", `g.Forget("key")`, `g.ForgetKey("key")`)},
		{revert("jobs/jobs.go"), revert("singleflight/singleflight_test.go")},
		{revert("singleflight/singleflight.go")},
	}},
	{"removed-function", steps(edit("jobs/helpers.go", goScale, ""), revert("jobs/helpers.go"))},
	{"removed-method", steps(
		edit("errgroup/errgroup.go", "func (g *Group) TryGo(f func() error) bool {", "func (g *Group) tryGo(f func() error) bool {"),
		revert("errgroup/errgroup.go"))},
	{"deleted-file", steps(remove("jobs/helpers.go"), revert("jobs/helpers.go"))},
	{"renamed-file", steps(move("jobs/helpers.go", "jobs/util.go"), move("jobs/util.go", "jobs/helpers.go"))},
	{"broken-then-renamed", steps(
		edit("jobs/helpers.go", "return max(n, 1)", `return max(n, "1")`),
		move("jobs/helpers.go", "jobs/util.go"),
		edit("jobs/util.go", `return max(n, "1")`, "return max(n, 1)"),
		move("jobs/util.go", "jobs/helpers.go"))},
	{"new-file", steps(
		create("jobs/extra.go", "package jobs\n\n// Extra is a weight.\nvar Extra = scale(\"2\")\n"),
		create("jobs/extra.go", "package jobs\n\n// Extra is a weight.\nvar Extra = scale(2)\n"),
		remove("jobs/extra.go"))},
	{"new-package", steps(
		create("newpkg/a.go", "// Package newpkg is new.\npackage newpkg\n\n// A is a number.\nfunc A() int {\n\treturn \"a\"\n}\n"),
		remove("newpkg/a.go"))},
	// A program the build leaves out (`go run gen.go`), which gopls
	// checks as a package of its own once it is open: written broken,
	// fixed, removed.
	{"standalone-program", steps(
		create("jobs/gen.go", goGen(`var n int64 = "4"`)),
		create("jobs/gen.go", goGen("var n int64 = 4")),
		remove("jobs/gen.go"))},
	// A file of the package given a build constraint that leaves it out:
	// what it declared is undefined in the others; given back, gopls
	// must take it into the package again.
	{"constraint-added", steps(
		edit("jobs/helpers.go", "package jobs\n", "//go:build ignore\n\npackage jobs\n"),
		revert("jobs/helpers.go"))},
	// A file a //go:embed pattern matches, deleted, then back; and a
	// pattern written before its file (lsp/embed.go: gopls reads the
	// matches only as it loads a package).
	{"embedded-file-removed", steps(remove("jobs/banner.txt"), revert("jobs/banner.txt"))},
	{"embed-before-file", steps(
		edit("jobs/assets.go", "//go:embed banner.txt", "//go:embed banner.txt motd.txt"),
		create("jobs/motd.txt", "jobs: welcome\n"),
		revert("jobs/assets.go"),
		remove("jobs/motd.txt"))},
	{"comment", steps(
		edit("jobs/helpers.go", "// scale returns", "// scale returns, for Limited,"),
		revert("jobs/helpers.go"))},
}
