package safefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// onPseudoFS reports whether f is on one of pseudoFS's file systems, by
// the f_fstypename of fstatfs(2) (macOS statfs(2): a NUL-terminated name of
// at most MFSTYPENAMELEN bytes).
func onPseudoFS(f *os.File) (bool, error) {
	var fs unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &fs); err != nil {
		return false, err
	}
	return pseudoFS[unix.ByteSliceToString(fs.Fstypename[:])], nil
}

// pseudoFS holds the f_fstypename of the macOS file systems refused:
// devfs (/dev, whose entries are devices anyway), fdesc (/dev/fd), and
// the kernel's procfs-like ones that BSDs mount, should one be mounted.
var pseudoFS = map[string]bool{
	"devfs": true, "fdesc": true, "procfs": true, "linprocfs": true,
}
