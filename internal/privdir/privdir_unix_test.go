//go:build unix

package privdir

import (
	"os"
	"path/filepath"
	"testing"
)

// platformCases adds TestCheck's unix rows: modes that let others in, and
// (as root) a directory another user owns.
func platformCases(t *testing.T, base string) []checkCase {
	mode := func(name string, m os.FileMode) string {
		d := filepath.Join(base, name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, m); err != nil { // past the umask
			t.Fatal(err)
		}
		return d
	}
	cases := []checkCase{
		{name: "group readable", dir: mode("group-r", 0o750), want: "mode -rwxr-x--- lets other users in (want 0700)"},
		{name: "world traversable", dir: mode("world-x", 0o701), want: "lets other users in"},
		{name: "world writable", dir: mode("open", 0o777), want: "lets other users in"},
	}
	if os.Getuid() == 0 {
		theirs := mode("theirs", 0o700)
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, checkCase{name: "not ours", dir: theirs, want: "owned by uid 65534, not 0"})
	}
	return cases
}
