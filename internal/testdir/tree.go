package testdir

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// GitEnv isolates the git a test runs, and the code under test runs, from
// the user's and the system's configuration (global excludes, default
// branch), and names an author and committer. It skips t when git is not
// installed.
func GitEnv(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
}

// Git runs git in dir and fails t when it fails.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// Real returns a fresh temporary directory (t.TempDir) with its symlinks
// resolved, as workspace roots are.
func Real(t testing.TB) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// WriteTree writes files (root-relative slash path → content) below root,
// making directories as needed.
func WriteTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TouchedLast dates every regular file under dir (a .git directory left
// out) an hour back and the file newest (slash-separated, relative to
// dir) a minute back, so that newest is the one the user modified last,
// which a session's prewarm checks (lsp.Manager.Prewarm). The files of a
// fresh copy otherwise share one modification time to the filesystem's
// tick, and which of them is newest would be the tie's. It fails when
// newest does not exist.
func TouchedLast(dir, newest string) error {
	now := time.Now()
	old, recent := now.Add(-time.Hour), now.Add(-time.Minute)
	target := filepath.Join(dir, filepath.FromSlash(newest))
	if _, err := os.Stat(target); err != nil {
		return fmt.Errorf("the file touched last: %w", err)
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case !d.Type().IsRegular():
			return nil
		case path == target:
			return os.Chtimes(path, recent, recent)
		}
		return os.Chtimes(path, old, old)
	})
}
