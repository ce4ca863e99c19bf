package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestDeletedFromHead: the files of HEAD missing from the work tree,
// however they went — `git mv` and `git rm` (staged), `rm` (not) — below a
// workspace under the repository's top; a file removed from the index but
// still on disk is not deleted (the soak's Stop judge caught a turn
// allowed after a `git mv`, Python, seed 222, Stop #1: `git ls-files
// --deleted` does not list it).
func TestDeletedFromHead(t *testing.T) {
	top := testdir.New(t)
	testdir.WriteTree(t, top, map[string]string{
		"outside.py": "x = 1\n", "pkg/moved.py": "a = 1\n", "pkg/removed.py": "b = 1\n", "pkg/gitrm.py": "c = 1\n",
		"pkg/cached.py": "d = 1\n", "pkg/kept.py": "e = 1\n",
	})
	gitIn(t, top, "init", "-q")
	gitIn(t, top, "add", "-A")
	gitIn(t, top, "commit", "-q", "-m", "base")
	gitIn(t, top, "mv", "pkg/moved.py", "pkg/renamed.py")
	gitIn(t, top, "rm", "-q", "pkg/gitrm.py")
	gitIn(t, top, "rm", "-q", "--cached", "pkg/cached.py")
	for _, rel := range []string{"pkg/removed.py", "outside.py"} {
		if err := os.Remove(filepath.Join(top, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	pkg := filepath.Join(top, "pkg")
	got := DeletedFromHead(context.Background(), pkg)
	want := []string{filepath.Join(pkg, "gitrm.py"), filepath.Join(pkg, "moved.py"), filepath.Join(pkg, "removed.py")}
	if !slices.Equal(got, want) {
		t.Errorf("DeletedFromHead = %q, want %q", got, want)
	}
	if got := DeletedFromHead(context.Background(), testdir.New(t)); got != nil {
		t.Errorf("DeletedFromHead outside a repository = %q, want none", got)
	}

	// The directory changed when the files went; an hour ago it had not.
	old := time.Now().Add(-time.Hour)
	if got := DirChangedSince(want, time.Now().Add(-time.Minute)); !slices.Equal(got, want) {
		t.Errorf("DirChangedSince a minute ago = %q, want %q", got, want)
	}
	if err := os.Chtimes(pkg, old, old); err != nil {
		t.Fatal(err)
	}
	if got := DirChangedSince(want, time.Now().Add(-time.Minute)); got != nil {
		t.Errorf("DirChangedSince a minute ago, the directory an hour old = %q, want none", got)
	}
}

// TestHeadCommitAndDeletedSince: HeadCommit names the commit a session
// began on ("" before the first commit and outside a repository), and
// DeletedSince that commit still lists a file deleted and committed
// after it, which DeletedFromHead no longer does.
func TestHeadCommitAndDeletedSince(t *testing.T) {
	ctx := context.Background()
	top := testdir.New(t)
	if got := HeadCommit(ctx, top); got != "" {
		t.Errorf("HeadCommit outside a repository = %q, want none", got)
	}
	testdir.WriteTree(t, top, map[string]string{"a.py": "a = 1\n", "b.py": "b = 1\n"})
	gitIn(t, top, "init", "-q")
	if got := HeadCommit(ctx, top); got != "" {
		t.Errorf("HeadCommit before the first commit = %q, want none", got)
	}
	gitIn(t, top, "add", "-A")
	gitIn(t, top, "commit", "-q", "-m", "base")
	began := HeadCommit(ctx, top)
	if len(began) < 40 {
		t.Fatalf("HeadCommit after a commit = %q, want a commit", began)
	}
	gitIn(t, top, "rm", "-q", "b.py")
	gitIn(t, top, "commit", "-q", "-m", "session")
	if got := HeadCommit(ctx, top); got == began || len(got) < 40 {
		t.Errorf("HeadCommit after the session's commit = %q, want a commit other than %q", got, began)
	}
	want := []string{filepath.Join(top, "b.py")}
	if got := DeletedSince(ctx, top, began); !slices.Equal(got, want) {
		t.Errorf("DeletedSince the commit the session began on = %q, want %q", got, want)
	}
	if got := DeletedFromHead(ctx, top); got != nil {
		t.Errorf("DeletedFromHead after the deletion was committed = %q, want none", got)
	}
}
