package safefile

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// platformCases adds TestRead's Windows rows: the NUL device (a character
// device by its handle), an AF_UNIX socket file (a reparse point) where
// the system has AF_UNIX, and a directory junction (a reparse point that
// is no symlink) where cmd's mklink can make one.
func platformCases(t *testing.T, dir, file string) []readCase {
	cases := []readCase{
		{name: "NUL device", path: "NUL", follow: true, max: 100, err: ErrNotRegular},
	}
	sock := filepath.Join(dir, "sock")
	if l, err := net.Listen("unix", sock); err == nil {
		t.Cleanup(func() { l.Close() })
		cases = append(cases,
			readCase{name: "socket", path: sock, max: 100, err: ErrNotRegular},
			readCase{name: "socket, followed", path: sock, follow: true, max: 100, err: ErrNotRegular},
		)
	} else {
		t.Logf("no AF_UNIX here: %v", err)
	}
	junction := filepath.Join(dir, "junction")
	if out, err := exec.Command("cmd", "/c", "mklink", "/J", junction, dir).CombinedOutput(); err == nil {
		cases = append(cases, readCase{name: "junction", path: junction, max: 100, err: ErrNotRegular})
	} else {
		t.Logf("no junction: %v: %s", err, out)
	}
	return cases
}

// TestOpenFileReparsePoint: the open itself refuses a symlink when not
// following (FILE_FLAG_OPEN_REPARSE_POINT, then the handle's attributes),
// the race Open's look cannot see; followed, the link's target is read.
func TestOpenFileReparsePoint(t *testing.T) {
	dir := testdir.New(t)
	file := filepath.Join(dir, "a")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if _, err := os.Lstat(link); err != nil {
		t.Skipf("the symlink made is not there (Wine): %v", err)
	}
	f, err := openFile(link, false)
	if err == nil {
		f.Close()
	}
	if want := "not a regular file: " + kindReparse; err == nil || err.Error() != want {
		t.Errorf("openFile(link, false) = %v, want %q", err, want)
	}
	f, err = openFile(link, true)
	if err != nil {
		t.Fatalf("openFile(link, true) = %v", err)
	}
	f.Close()
}
