package safefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// onPseudoFS reports whether f is on one of pseudoFS's file systems, by
// the f_type of fstatfs(2).
func onPseudoFS(f *os.File) (bool, error) {
	var fs unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &fs); err != nil {
		return false, err
	}
	return pseudoFS[uint32(fs.Type)], nil
}

// pseudoFS holds the statfs(2) magic numbers (linux/magic.h) of the kernel
// pseudo-filesystems refused: proc, sysfs, debugfs, tracefs, securityfs,
// configfs, efivarfs, cgroup and cgroup2, bpf.
var pseudoFS = map[uint32]bool{
	0x9fa0: true, 0x62656572: true, 0x64626720: true, 0x74726163: true, 0x73636673: true,
	0x62656570: true, 0xde5e81e4: true, 0x27e0eb: true, 0x63677270: true, 0xcafe4a11: true,
}
