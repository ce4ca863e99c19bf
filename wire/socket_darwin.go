package wire

// maxSocketPath is the longest socket path macOS accepts: sun_path holds
// 104 bytes including the terminating NUL (<sys/un.h>, unix(4)).
const maxSocketPath = 103
