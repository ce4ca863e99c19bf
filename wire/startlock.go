package wire

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/filelock"
	"github.com/lsp-hook/lsp-hook/internal/poll"
)

// startLockPath is the file hooks lock while one of them starts the daemon
// for socket: <socket without .sock>.start, beside the daemon's own lock.
func startLockPath(socket string) string { return trimExt(socket) + ".start" }

// lockStart takes the start lock of socket (an exclusive lock,
// internal/filelock: flock(2), or LockFileEx on Windows), waiting
// for a hook that holds it (it is starting the daemon) until ctx ends.
// Many hooks that find no daemon at once (an agent's parallel edits on a
// cold workspace) then start one daemon, not one each: the first takes the
// lock and starts it, the others wait and find it answering. While the
// lock is held, each poll (2 ms, backing off to 50 ms) first asks ready
// (nil: never); when it reports true, lockStart returns a nil unlock and a
// nil error without the lock: the daemon answers, so the hook need not
// queue for the lock behind the others. The returned function releases
// the lock; the kernel releases it too if the process dies holding it.
func lockStart(ctx context.Context, socket string, ready func() bool) (unlock func(), err error) {
	f, err := os.OpenFile(startLockPath(socket), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening start lock: %w", err)
	}
	var lockErr error
	isReady := false
	err = poll.Until(ctx, 2*time.Millisecond, 50*time.Millisecond, func() bool {
		lockErr = filelock.TryLock(f)
		if errors.Is(lockErr, filelock.ErrLocked) {
			isReady = ready != nil && ready()
			return isReady
		}
		return true
	})
	switch {
	case err != nil:
		f.Close()
		return nil, fmt.Errorf("waiting for another hook to start the daemon: %w", err)
	case isReady:
		f.Close()
		return nil, nil
	case lockErr != nil:
		f.Close()
		return nil, fmt.Errorf("taking start lock %s: %w", f.Name(), lockErr)
	}
	return func() { f.Close() }, nil
}

// ErrAlreadyRunning is returned by TakeLock (and the daemon's Listen) when another daemon holds the
// socket's lock.
var ErrAlreadyRunning = errors.New("a daemon is already serving this socket")

// TakeLock opens (creating it, 0600) the lock file of socket and takes its
// exclusive lock without waiting, as the daemon does while it runs (internal/filelock: flock(2), or
// LockFileEx on Windows): ErrAlreadyRunning when another daemon holds it.
func TakeLock(socket string) (*os.File, error) {
	f, err := os.OpenFile(LockPath(socket), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening lock: %w", err)
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, fmt.Errorf("%w (%s)", ErrAlreadyRunning, socket)
		}
		return nil, fmt.Errorf("taking lock: %w", err)
	}
	return f, nil
}
