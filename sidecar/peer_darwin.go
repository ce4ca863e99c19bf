package sidecar

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// checkPeer refuses a peer whose uid is not ours, read with LOCAL_PEERCRED
// (unix(4): a struct xucred, the peer's effective uid at connect time, as
// getpeereid(3) reads it); the pid in the refusal comes from
// LOCAL_PEERPID, and is -1 when that cannot be read.
func checkPeer(conn *net.UnixConn) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Xucred
	var cerr error
	pid := -1
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if p, err := unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID); err == nil {
			pid = p
		}
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("reading peer credentials: %w", cerr)
	}
	return peerRefusal(pid, int(cred.Uid))
}
