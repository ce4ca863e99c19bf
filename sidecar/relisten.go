package sidecar

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// socketCheckInterval is how often a serving daemon checks that its socket
// file is still the one it listens on.
const socketCheckInterval = time.Second

// keepSocket keeps the daemon reachable when its socket file is deleted or
// replaced under it, until Shutdown. Serve runs it with the files Listen
// made (servedFiles), read before Serve accepts anything.
//
// Why: a Unix listener whose path is gone accepts nothing more, yet its
// daemon still holds the socket's lock, so the daemon a hook starts then
// cannot listen (wire.ErrAlreadyRunning) and every hook falls back to the
// in-process validators until the idle timeout. Tmp cleaners age files out
// of $TMPDIR/lsp-hook-<uid>, people delete runtime directories, and a
// `rm -rf` of the wrong directory happens.
//
// What: the daemon listens again; it does not exit. It keeps its warm
// language servers and open documents, and the hook that found no socket
// reaches it within socketCheckInterval (the daemon that hook starts loses
// the lock race, and Connect keeps dialing for lostRaceWait). Every
// socketCheckInterval it compares the file at the socket path with the
// listener it serves (device and inode). When they differ:
//
//  1. It checks that it still holds the lock. When the lock file is gone or
//     is another file, it takes the lock anew on a fresh lock file; when
//     another daemon holds that one, that daemon owns the workspace now,
//     and this one shuts down without removing the other's socket.
//  2. Holding the lock, it removes whatever is at the socket path (the
//     lock says nobody else serves it, as in Listen), re-creates the
//     socket directory if it went too, and listens there again, 0600,
//     accepting as Serve does.
//
// The first listener stays open, unreachable, until Shutdown closes it; a
// later re-created one is closed when it is replaced.
func (s *Server) keepSocket(served socketFiles) {
	cur, lockID := served.socket, served.lock
	var (
		ln      *net.UnixListener // the re-created listener, nil before the first re-creation
		lock    *os.File          // the re-taken lock, nil while the first is held
		lastErr string            // the last failure logged, so a lasting one is logged once
	)
	defer func() {
		if ln != nil {
			ln.Close()
		}
		// Release a re-taken lock only once Shutdown is over (a second
		// Shutdown waits for the first), as Shutdown releases the first
		// lock after stopping everything: a new daemon must not listen
		// before this one's listeners are closed.
		s.Shutdown()
		if lock != nil {
			lock.Close()
		}
	}()
	tick := time.NewTicker(socketCheckInterval)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		if id, err := fileID(s.socket); err == nil && id == cur {
			continue
		}
		newLock, newLockID, err := s.checkLock(lockID)
		if errors.Is(err, wire.ErrAlreadyRunning) {
			s.Log.Warn("socket replaced and another daemon holds the lock; leaving the workspace to it", "socket", s.socket)
			s.leave(ln)
			ln = nil
			return
		}
		if err == nil {
			if newLock != nil {
				if lock != nil {
					lock.Close()
				}
				lock, lockID = newLock, newLockID
			}
			var next *net.UnixListener
			if next, cur, err = s.relisten(); err == nil {
				s.Log.Warn("socket file was deleted or replaced; listening on it again", "socket", s.socket)
				if ln != nil {
					ln.Close() // unreachable now; ends its accept loop
				}
				ln, lastErr = next, ""
				go s.acceptOn(next)
				continue
			}
		}
		if err.Error() != lastErr {
			lastErr = err.Error()
			s.Log.Error("socket file was deleted or replaced and cannot be re-created; retrying", "socket", s.socket, "err", err)
		}
	}
}

// checkLock makes sure this daemon holds the socket's lock. held is the
// lock file it holds (device and inode). When the file at the lock path is
// still held, it returns nil, held. Otherwise it creates or opens that file
// and takes its lock, returning it; wire.ErrAlreadyRunning when another daemon
// holds it.
func (s *Server) checkLock(held fileKey) (*os.File, fileKey, error) {
	p := wire.LockPath(s.socket)
	if id, err := fileID(p); err == nil && id == held {
		return nil, held, nil
	}
	if err := wire.EnsureDir(filepath.Dir(s.socket)); err != nil {
		return nil, held, err
	}
	f, err := wire.TakeLock(s.socket)
	if err != nil {
		return nil, held, err
	}
	id, err := openFileID(f)
	if err != nil {
		f.Close()
		return nil, held, fmt.Errorf("reading lock: %w", err)
	}
	return f, id, nil
}

// relisten removes what is at the socket path and listens there anew, as
// Listen does, returning the listener and the new socket file's identity.
func (s *Server) relisten() (*net.UnixListener, fileKey, error) {
	if err := wire.EnsureDir(filepath.Dir(s.socket)); err != nil {
		return nil, fileKey{}, err
	}
	if err := os.Remove(s.socket); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fileKey{}, fmt.Errorf("removing %s: %w", s.socket, err)
	}
	ln, err := listenSocket(s.socket)
	if err != nil {
		return nil, fileKey{}, err
	}
	// Shutdown closes the first listener, which unlinks the path: this one
	// must not unlink it again after a new daemon may have listened there.
	ln.SetUnlinkOnClose(false)
	id, err := fileID(s.socket)
	if err != nil {
		ln.Close()
		return nil, fileKey{}, err
	}
	return ln, id, nil
}

// leave shuts the daemon down after another daemon took the workspace
// over, leaving that daemon's socket where it is: the first listener would
// unlink the path when Shutdown closes it.
func (s *Server) leave(ln *net.UnixListener) {
	if ln != nil {
		ln.Close()
	}
	select {
	case <-s.done: // shutting down already: the path is unlinked or about to be
	default:
		s.ln.SetUnlinkOnClose(false)
	}
	s.Shutdown()
}

// acceptOn accepts connections on a re-created listener until Shutdown or
// until it is closed, as Serve does on the first.
func (s *Server) acceptOn(ln *net.UnixListener) {
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			select {
			case <-s.done:
				return
			default:
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			if !errors.Is(err, net.ErrClosed) {
				s.Log.Error("accepting on the re-created socket", "socket", s.socket, "err", err)
			}
			return
		}
		if err := checkPeer(conn); err != nil {
			s.Log.Warn("refusing connection", "err", err)
			conn.Close()
			continue
		}
		s.serveConn(conn)
	}
}

// socketFiles identifies the socket file a daemon listens on and the lock
// file it holds.
type socketFiles struct {
	socket, lock fileKey
}

// servedFiles returns the identities of the files at socket and at its lock
// path; a file that cannot be read is the zero key, which matches no file,
// so keepSocket looks at it again at its first check.
func servedFiles(socket string) socketFiles {
	sock, _ := fileID(socket)
	lock, _ := fileID(wire.LockPath(socket))
	return socketFiles{socket: sock, lock: lock}
}

// fileKey identifies a file: device and inode on unix, volume serial
// number and file index on Windows (fileID, openFileID).
type fileKey struct {
	dev, ino uint64
}
