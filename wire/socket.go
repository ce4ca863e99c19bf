package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/privdir"
)

// SocketEnv overrides the socket path (DESIGN.md "Socket and wire protocol").
const SocketEnv = "LSP_HOOK_SOCKET"

// SocketPath returns the daemon socket for the workspace root (absolute):
// $LSP_HOOK_SOCKET when set; else <hash>.sock, where <hash> is the first
// 16 hex digits of sha256(root), in the first of the platform's socket
// directories (socketDirs: on unix $XDG_RUNTIME_DIR/lsp-hook, else
// /run/user/<uid>/lsp-hook when that runtime dir is ours, else
// <the user's temp dir>/lsp-hook-<uid>; %LOCALAPPDATA%\lsp-hook on
// Windows) — unless nothing listens there and a daemon already listens on
// <hash>.sock in another of those directories (a private one:
// privdir.Check), whose socket is returned instead. So a client started
// with less of the environment (an MCP client passes only HOME, LOGNAME,
// PATH, SHELL, TERM and USER) finds the daemon the hooks started
// (DESIGN.md "Socket path").
func SocketPath(root string) string {
	if p := os.Getenv(SocketEnv); p != "" {
		return p
	}
	sum := sha256.Sum256([]byte(root))
	name := hex.EncodeToString(sum[:])[:16] + ".sock"
	dirs := socketDirs()
	first := filepath.Join(dirs[0], name)
	// Only a socket file in another directory can change the answer: with
	// none (the usual case) the first is the answer without a probe, which
	// would cost the daemon an accept and every hook a connection.
	var others []string
	for _, d := range dirs[1:] {
		if p := filepath.Join(d, name); exists(p) {
			others = append(others, p)
		}
	}
	if len(others) == 0 || listening(first) {
		return first
	}
	for _, p := range others {
		if privdir.Check(filepath.Dir(p)) == nil && listening(p) {
			return p
		}
	}
	return first
}

// RecordsDir returns the directory where every daemon of this user keeps
// its memory record (package internal/membudget, DESIGN.md "Memory"):
// daemons/ in the default socket directory — the first of the platform's
// socket directories, as SocketPath lists them — whichever socket the
// daemon listens on, so daemons started with $LSP_HOOK_SOCKET share the
// budget too.
func RecordsDir() string { return filepath.Join(socketDirs()[0], "daemons") }

// exists reports whether something (a socket, live or stale) is at p.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// listening reports whether something accepts a connection on the socket
// p within 200 ms; the connection is closed at once.
func listening(p string) bool {
	if !exists(p) {
		return false
	}
	nc, err := net.DialTimeout("unix", p, 200*time.Millisecond)
	if err != nil {
		return false
	}
	nc.Close()
	return true
}

// uniqueDirs returns dirs without "" and without repeats, in order.
func uniqueDirs(dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		if d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// The platform's part of the socket, one set per platform file
// (socket_unix.go, socket_windows.go; socket_linux.go, socket_darwin.go,
// socket_otherunix.go for maxSocketPath); the daemon's part (listening,
// peer checks, file identities) is in package sidecar:
//
//	socketDirs() []string                     // the socket directories, the default first
//	maxSocketPath                             // the longest socket path bind accepts, in bytes
//	socketDirHint                             // what to set for a shorter one
//	openAppend(path string) (*os.File, error) // the log, 0600, not through a link
//
// On unix the socket directory is 0700 and ours (EnsureDir), the socket
// 0600, and the daemon reads a peer's uid (SO_PEERCRED on Linux,
// LOCAL_PEERCRED on macOS). On Windows (AF_UNIX, Windows 10 1803 and
// later) a socket has no peer credentials: the directory's ACL, admitting
// only our user (internal/privdir), is the check.

// LogPath returns the daemon's default log file, beside its socket:
// <socket without .sock>.log.
func LogPath(socket string) string {
	return trimExt(socket) + ".log"
}

// LockPath returns the file the daemon serving socket holds locked while
// it runs: <socket without .sock>.lock, beside the start lock.
func LockPath(socket string) string { return trimExt(socket) + ".lock" }

// SessionsPath returns the file a daemon serving socket keeps its agent
// sessions' record in as it runs and when it stops, for the next daemon to
// read (package internal/session, Registry.Save): <socket without
// .sock>.sessions.json.
func SessionsPath(socket string) string { return trimExt(socket) + ".sessions.json" }

// HookMarksPath returns the file a daemon serving socket keeps its memory
// of agent sessions' hooks in as it runs and when it stops (where each
// hook chain's previous hook left off, for changed_files' span), for the
// next daemon to read: <socket without .sock>.hooks.json.
func HookMarksPath(socket string) string { return trimExt(socket) + ".hooks.json" }

func trimExt(p string) string { return p[:len(p)-len(filepath.Ext(p))] }

// ErrUnsafeDir is returned for a socket directory another user could tamper
// with.
var ErrUnsafeDir = errors.New("unsafe socket directory")

// EnsureDir creates the socket directory private if needed (0700 on unix;
// on Windows an ACL admitting only our user; its parent as usual) and
// checks it is safe: a real directory (not a link), ours, that no other
// user may enter (internal/privdir).
func EnsureDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(dir), err)
	}
	if err := privdir.Make(dir); err != nil {
		return dirError(dir, err)
	}
	return nil
}

// dirError words privdir.Make's error for the socket directory dir:
// ErrUnsafeDir with its reason, or what failed in making or looking at it.
func dirError(dir string, err error) error {
	var unsafe *privdir.UnsafeError
	if errors.As(err, &unsafe) {
		return fmt.Errorf("%w %s: %s", ErrUnsafeDir, dir, unsafe.Reason)
	}
	return fmt.Errorf("preparing socket directory: %w", err)
}

// CheckSocketPath refuses a socket path the kernel would refuse, with an
// error that says so (bind's own is "invalid argument").
func CheckSocketPath(p string) error {
	if len(p) > maxSocketPath {
		return fmt.Errorf("socket path %s is %d bytes; Unix sockets allow %d (set %s or %s to a shorter directory)", p, len(p), maxSocketPath, SocketEnv, socketDirHint)
	}
	return nil
}
