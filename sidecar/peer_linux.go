package sidecar

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// checkPeer refuses a peer whose uid is not ours, read with SO_PEERCRED
// (unix(7): the peer's pid, uid and gid at connect time).
func checkPeer(conn *net.UnixConn) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("reading peer credentials: %w", cerr)
	}
	return peerRefusal(int(cred.Pid), int(cred.Uid))
}
