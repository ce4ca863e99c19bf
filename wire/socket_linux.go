package wire

// maxSocketPath is the longest socket path Linux accepts: sun_path holds
// 108 bytes including the terminating NUL (unix(7)).
const maxSocketPath = 107
