//go:build unix

package sidecar

import (
	"fmt"
	"os"
)

// peerRefusal is the refusal of a peer with pid and uid, nil when uid is
// ours: the one wording of checkPeer on every unix.
func peerRefusal(pid, uid int) error {
	if uid != os.Getuid() {
		return fmt.Errorf("peer pid %d has uid %d, not %d", pid, uid, os.Getuid())
	}
	return nil
}
