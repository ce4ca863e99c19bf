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
	// A file whose directory is gone too is judged by the nearest
	// directory that exists: pkg, whose entry sub was.
	gone := filepath.Join(pkg, "sub", "deeper", "x.py")
	if got := DirChangedSince([]string{gone}, time.Now().Add(-time.Minute)); got != nil {
		t.Errorf("DirChangedSince of a file below a gone directory, pkg an hour old = %q, want none", got)
	}
	now := time.Now()
	if err := os.Chtimes(pkg, now, now); err != nil {
		t.Fatal(err)
	}
	if got := DirChangedSince([]string{gone}, now.Add(-time.Minute)); !slices.Equal(got, []string{gone}) {
		t.Errorf("DirChangedSince of a file below a gone directory, pkg changed now = %q, want it", got)
	}
}

// TestUnder: the files below any of the directories, each once, sorted;
// not a directory itself, nor a sibling sharing its name's prefix.
func TestUnder(t *testing.T) {
	root := testdir.New(t) // absolute on every platform; nothing is created below it
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	got := Under([]string{p("lib"), p("pkg/a")},
		[]string{p("lib/x.go"), p("lib"), p("lib2/y.go"), p("pkg/a/b/c.go"), p("pkg/ab.go"), p("lib/x.go"), p("main.go")})
	if want := []string{p("lib/x.go"), p("pkg/a/b/c.go")}; !slices.Equal(got, want) {
		t.Errorf("Under = %q, want %q", got, want)
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

// TestSessionBase: the commit a session's end of turn is judged against,
// for each place its HEAD can be at the end (the session began on a, at
// session; commits dated before it are not the session's).
func TestSessionBase(t *testing.T) {
	testdir.GitEnv(t)
	root := testdir.Real(t)
	ctx := context.Background()
	session := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	branch := func(name, from string, at time.Time) string {
		t.Helper()
		t.Setenv("GIT_COMMITTER_DATE", at.Format(time.RFC3339))
		t.Setenv("GIT_AUTHOR_DATE", at.Format(time.RFC3339))
		testdir.Git(t, root, "checkout", "-q", "-B", name, from)
		testdir.Git(t, root, "commit", "-q", "--allow-empty", "-m", name)
		return HeadCommit(ctx, root)
	}
	testdir.Git(t, root, "init", "-q", "-b", "start")
	t.Setenv("GIT_COMMITTER_DATE", session.Add(-3*time.Hour).Format(time.RFC3339))
	testdir.Git(t, root, "commit", "-q", "--allow-empty", "-m", "root")
	r := HeadCommit(ctx, root)
	a := branch("master", r, session.Add(-time.Hour))
	up := branch("up", a, session.Add(-30*time.Minute)) // others' work, pushed before the session
	branch("mine", a, session)                          // the session's commit, in the second it began
	branch("uplate", a, session.Add(2*time.Minute))     // others' work, pushed during the session
	wip := branch("wip", r, session.Add(-2*time.Hour))  // another branch, older than the session
	branch("wipmine", wip, session.Add(3*time.Minute))  // the session's commit on it
	for _, tc := range []struct {
		name, head, began string
		at                time.Time
		want              string
		moved             bool
	}{
		{"HEAD where the session began", "master", a, session, a, false},
		{"the session's own commit on top", "mine", a, session, a, false},
		{"a fast-forward pull of commits older than the session", "up", a, session, up, true},
		{"a pull of commits made during the session: counted with its own", "uplate", a, session, a, false},
		{"another branch checked out", "wip", a, session, wip, true},
		{"another branch, the session's commit on it", "wipmine", a, session, wip, true},
		{"reset to an older commit", r, a, session, r, true},
		{"when it began unknown", "wip", a, time.Time{}, a, false},
		{"no commit when it began", "wip", "", session, "", false},
		{"the commit it began on unknown", "wip", "HEAD", session, "HEAD", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testdir.Git(t, root, "checkout", "-q", tc.head)
			base, moved := SessionBase(ctx, root, tc.began, tc.at)
			if base != tc.want || moved != tc.moved {
				t.Errorf("SessionBase = %.7s, %v; want %.7s, %v", base, moved, tc.want, tc.moved)
			}
		})
	}
}
