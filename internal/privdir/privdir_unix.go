//go:build unix

package privdir

import (
	"fmt"
	"os"
	"syscall"
)

// mkdir creates dir with mode 0700 (less the umask, which can only narrow
// it).
func mkdir(dir string) error { return os.Mkdir(dir, 0o700) }

// check refuses a directory whose owner is not our uid or whose mode has
// any group or other bit (stat(2)'s st_uid and st_mode).
func check(_ string, fi os.FileInfo) (string, error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && int(st.Uid) != os.Getuid() {
		return fmt.Sprintf("owned by uid %d, not %d", st.Uid, os.Getuid()), nil
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Sprintf("mode %v lets other users in (want 0700)", fi.Mode().Perm()), nil
	}
	return "", nil
}
