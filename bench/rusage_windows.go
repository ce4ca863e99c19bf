package main

import "os"

// maxRSSKiB is 0: Windows's rusage (syscall.Rusage: times only) has no
// peak memory.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }
