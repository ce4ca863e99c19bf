package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
)

// TestPreCommit runs this repository's .pre-commit-hooks.yaml with the real
// pre-commit (Debian's, `make tools`) as a user tries a hook out:
// `pre-commit try-repo <module root> lsp-hook` in a scratch git repository,
// which builds lsp-hook the way a language: golang hook is built (go
// install ./... in a clone, uncommitted changes included) and runs it on
// the staged files. A JSON file and a Go file staged with an error each
// must fail it and be named; staged fixed, it must pass, even with a
// broken unstaged change on top (pre-commit checks what is staged).
func TestPreCommit(t *testing.T) {
	e2e(t)
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
			t.Fatal("pre-commit is required (LSP_HOOK_REQUIRE_SERVERS=1) but not on PATH; run `make tools`")
		}
		t.Skip("pre-commit not installed (run `make tools`, or apt-get install pre-commit)")
	}
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	// pre-commit sets GOPATH to the hook's environment and deletes its pkg
	// directory after the build: the module cache stays the user's, so
	// nothing is downloaded twice. PRE_COMMIT_HOME keeps pre-commit's
	// clones and environments in the test's directory.
	env := childEnv(testdaemon.ShortDir(t), []string{
		"PATH=" + langPath(),
		"PRE_COMMIT_HOME=" + filepath.Join(dir, "pre-commit"),
		"GOMODCACHE=" + strings.TrimSpace(string(gomodcache)),
		"GOTOOLCHAIN=local",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
	})
	run := func(name string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out), code
	}
	write := func(files map[string]string) {
		t.Helper()
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(repo, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	run("git", "init", "-q")
	const (
		goodGo   = "package main\n\nfunc main() {\n\tvar n int = 1\n\t_ = n\n}\n"
		badGo    = "package main\n\nfunc main() {\n\tvar n int = \"one\"\n\t_ = n\n}\n"
		goodJSON = "{\"a\": 1}\n"
		badJSON  = "{\"a\": 1,}\n"
	)
	write(map[string]string{"go.mod": "module example.com/pc\n\ngo 1.26\n", "README.md": "# pc\n", "main.go": badGo, "data.json": badJSON})
	run("git", "add", "-A")

	tryRepo := func() (string, int) { return run("pre-commit", "try-repo", moduleRoot, "lsp-hook") }
	out, code := tryRepo()
	if code != 1 || !strings.Contains(out, "data.json:1:") || !strings.Contains(out, "main.go:4:") || !strings.Contains(out, "- hook id: lsp-hook") {
		t.Fatalf("errors staged in data.json and main.go: pre-commit exited %d, want 1 with both files named:\n%s", code, out)
	}

	write(map[string]string{"main.go": goodGo, "data.json": goodJSON})
	run("git", "add", "-A")
	write(map[string]string{"data.json": badJSON}) // unstaged: not what would be committed
	if out, code := tryRepo(); code != 0 || !strings.Contains(out, "Passed") {
		t.Fatalf("clean files staged: pre-commit exited %d, want 0:\n%s", code, out)
	}
	if got, err := os.ReadFile(filepath.Join(repo, "data.json")); err != nil || string(got) != badJSON {
		t.Errorf("pre-commit did not restore the unstaged change to data.json: %q, %v", got, err)
	}
}
