//go:build unix && !linux && !darwin

package sidecar

import (
	"errors"
	"net"
)

// maxSocketPath is the longest socket path the BSDs accept: sun_path
// holds 104 bytes including the terminating NUL (<sys/un.h>).
const maxSocketPath = 103

// checkPeer refuses every peer on the unixes lsp-hook does not ship for:
// their peer-credential calls are not wired up.
func checkPeer(*net.UnixConn) error {
	return errors.New("peer credentials are not read on this platform")
}
