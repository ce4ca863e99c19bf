//go:build unix && !linux && !darwin

package wire

import (
	"errors"
	"net"
)

// maxSocketPath is the longest socket path the BSDs accept: sun_path
// holds 104 bytes including the terminating NUL (<sys/un.h>).
const maxSocketPath = 103

// userTempDir is the temp dir of the socket's last resort: /tmp, whatever
// $TMPDIR says (hier(7)), so that a client started without TMPDIR finds
// the same socket.
func userTempDir() string { return "/tmp" }
