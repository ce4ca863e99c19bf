package wire

// maxSocketPath is the longest socket path Linux accepts: sun_path holds
// 108 bytes including the terminating NUL (unix(7)).
const maxSocketPath = 107

// userTempDir is the temp dir of the socket's last resort: /tmp, whatever
// $TMPDIR says (Filesystem Hierarchy Standard), so that a client started
// without TMPDIR finds the same socket.
func userTempDir() string { return "/tmp" }
