package wire

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// maxSocketPath is the longest socket path macOS accepts: sun_path holds
// 104 bytes including the terminating NUL (<sys/un.h>, unix(4)).
const maxSocketPath = 103

// userTempDir is the temp dir of the socket's last resort: the user's own
// (/var/folders/…/T/, what launchd sets $TMPDIR to): $TMPDIR when set,
// else confstr(_CS_DARWIN_USER_TEMP_DIR) through `getconf
// DARWIN_USER_TEMP_DIR` (a client started without TMPDIR, like an MCP
// server, must find the same socket), else /tmp.
func userTempDir() string {
	if d := os.Getenv("TMPDIR"); d != "" {
		return filepath.Clean(d)
	}
	out, err := exec.Command("/usr/bin/getconf", "DARWIN_USER_TEMP_DIR").Output()
	if d := strings.TrimSpace(string(out)); err == nil && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return "/tmp"
}
