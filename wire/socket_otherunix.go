//go:build unix && !linux && !darwin

package wire

import (
	"errors"
	"net"
)

// maxSocketPath is the longest socket path the BSDs accept: sun_path
// holds 104 bytes including the terminating NUL (<sys/un.h>).
const maxSocketPath = 103
