package sidecar

// listingFDs is the descriptors counting our own takes: on Linux gopsutil
// lists /proc/PID/fd, whose open directory is one of the entries.
const listingFDs = 1
