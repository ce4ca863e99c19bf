package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// readCase is one row of TestRead; platformCases adds a platform's own.
type readCase struct {
	name   string
	path   string
	follow bool
	max    int64
	want   string // the text read, when no error
	err    error  // errors.Is target; nil: read
	big    bool   // a *TooLargeError
}

// TestRead: what Open and OpenFollow refuse, each without blocking (a FIFO
// with no writer included), and what ReadAll reads.
func TestRead(t *testing.T) {
	dir := testdir.New(t)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	file := write("a.txt", "hello\n")
	big := write("big.txt", "")
	if err := os.Truncate(big, 1<<20); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	linkErr := os.Symlink(file, link) // Windows: needs Developer Mode or the privilege
	if linkErr == nil {
		_, linkErr = os.Lstat(link) // Wine 8 says it made one
	}
	tests := []readCase{
		{name: "regular", path: file, max: 100, want: "hello\n"},
		{name: "regular at its bound", path: file, max: 6, want: "hello\n"},
		{name: "over the bound", path: file, max: 5, big: true},
		{name: "sparse 1 MiB over the bound", path: big, max: 1<<20 - 1, big: true},
		{name: "directory", path: dir, follow: true, max: 100, err: ErrNotRegular},
		{name: "directory, not followed", path: dir, max: 100, err: ErrNotRegular},
		{name: "missing", path: filepath.Join(dir, "nope"), follow: true, max: 100, err: os.ErrNotExist},
	}
	if linkErr == nil {
		tests = append(tests,
			readCase{name: "symlink, not followed", path: link, max: 100, err: ErrNotRegular},
			readCase{name: "symlink, followed", path: link, follow: true, max: 100, want: "hello\n"},
		)
	} else {
		t.Logf("no symlinks here: %v", linkErr)
	}
	tests = append(tests, platformCases(t, dir, file)...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil && tt.err != os.ErrNotExist {
				t.Skipf("%s: %v", tt.path, err)
			}
			type answer struct {
				b   []byte
				err error
			}
			done := make(chan answer, 1)
			go func() {
				open := Open
				if tt.follow {
					open = OpenFollow
				}
				f, fi, err := open(tt.path)
				if err != nil {
					done <- answer{nil, err}
					return
				}
				defer f.Close()
				b, err := ReadAll(f, fi, tt.max)
				done <- answer{b, err}
			}()
			var got answer
			select {
			case got = <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: still blocked after 5 s", tt.path)
			}
			var tooLarge *TooLargeError
			switch {
			case tt.big:
				if !errors.As(got.err, &tooLarge) || tooLarge.Max != tt.max {
					t.Errorf("got %q, %v; want a *TooLargeError with max %d", got.b, got.err, tt.max)
				}
			case tt.err != nil:
				if !errors.Is(got.err, tt.err) {
					t.Errorf("got %q, %v; want %v", got.b, got.err, tt.err)
				}
			case got.err != nil || string(got.b) != tt.want:
				t.Errorf("got %q, %v; want %q", got.b, got.err, tt.want)
			}
		})
	}
}
