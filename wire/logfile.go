package wire

import (
	"os"
	"sync"
	"time"
)

// logCheckInterval is how often a logFile looks at its path: whether the
// file it writes is still the one there, and how large it has grown.
const logCheckInterval = time.Second

// logFile is the daemon's log: an append-only file that follows its path.
// A daemon runs for hours, so the file it opened at start can go away under
// it — a tmp cleaner or a person deletes the socket directory (which
// keepSocket re-creates), logrotate moves the file — and a log written to
// a deleted file is lost to `lsp-hook status` and to anyone reading the
// path. At most every checkEvery, a write first looks at the path: when
// the file there is not the one open (or is gone while its directory is
// back), it opens the path again; when the file has grown past maxSize, it
// renames it to <path>.1 (one old generation kept) and starts a new one.
// It never creates the directory (a socket directory is re-created, with
// its checks, by keepSocket) and never follows a symlink at the path. A
// failed reopen keeps writing to the file already open, and a write error
// is returned to slog, which drops the record: logging never stops the
// daemon.
type logFile struct {
	path       string
	maxSize    int64
	checkEvery time.Duration

	mu      sync.Mutex // guards the fields below
	f       *os.File
	checked time.Time
}

// openLogFile opens path for appending (0600, no symlink), rotating it
// first when it is over maxLogSize.
func openLogFile(path string) (*logFile, error) {
	l := &logFile{path: path, maxSize: maxLogSize, checkEvery: logCheckInterval}
	if fi, err := os.Stat(path); err == nil && fi.Size() > l.maxSize {
		_ = os.Rename(path, path+".1")
	}
	f, err := openAppend(path)
	if err != nil {
		return nil, err
	}
	l.f, l.checked = f, time.Now()
	return l, nil
}

// Write appends p, after looking at the path when checkEvery has passed.
func (l *logFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := time.Now(); now.Sub(l.checked) >= l.checkEvery {
		l.checked = now
		l.follow()
	}
	return l.f.Write(p)
}

// follow reopens the path when the open file is no longer there, or
// rotates it when it is over maxSize. l.mu is held.
func (l *logFile) follow() {
	open, err := l.f.Stat()
	if err != nil {
		return
	}
	at, err := os.Lstat(l.path)
	switch {
	case err == nil && os.SameFile(open, at) && at.Size() > l.maxSize:
		if os.Rename(l.path, l.path+".1") != nil {
			return
		}
	case err == nil && os.SameFile(open, at):
		return // still ours, and small enough
	}
	// Gone, replaced, or just rotated: open the path again. When its
	// directory is gone too this fails, and the open file is kept until
	// the directory is back.
	f, err := openAppend(l.path)
	if err != nil {
		return
	}
	l.f.Close()
	l.f = f
}

// Close closes the open file.
func (l *logFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
