package sidecar

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"time"
)

// A daemon keeps two records for the next daemon of its socket beside the
// socket: the agent sessions' (sessions.go, for the Stop gate) and the
// hook marks (hookmarks_persist.go, for a shell hook's span). A daemon
// that stops writes them as it stops; one that is killed (SIGKILL, the
// kernel's OOM killer, a crash) cannot, and its sessions' turns then ended
// unchecked on the errors they made before — the Stop hook found no
// daemon and no record and allowed in silence — while the next shell
// hook's span fell back to a minute. So a daemon also writes them while it
// runs (checkpoint): as a request ends, and while one runs longer than
// checkpointEvery, at most once every checkpointEvery, and at once when a
// session touches a file for the first time, each record whose text
// changed, by a write to a temporary file and a rename, so that a daemon
// killed mid-write leaves the record before it whole. A daemon killed
// leaves what it knew at its last checkpoint — within checkpointEvery of
// a request's end when requests come more often than that, with every
// file its sessions touched — and an idle one writes nothing.

// checkpointEvery is the least time between two checkpoints
// (checkpointLoop).
const checkpointEvery = 500 * time.Millisecond

// recordKeeper is the daemon's side of its records: a wake-up for the
// checkpoint, and what each record file holds.
type recordKeeper struct {
	wake    chan struct{} // buffered 1; made by Listen
	urgent  chan struct{} // buffered 1; made by Listen
	mu      sync.Mutex    // serialises writes; guards written
	written map[string][]byte
}

// touched notes that a request may have changed the records: the
// checkpoint writes those that did, at once or checkpointEvery after its
// last write. Before Listen it does nothing.
func (k *recordKeeper) touched() {
	select {
	case k.wake <- struct{}{}:
	default:
	}
}

// firstTouch notes that a session touched a file for the first time: the
// checkpoint writes at once, not checkpointEvery after its last write. A
// daemon killed while that change is checked (its server slow, the
// machine out of memory) must not take the file out of the session's
// record, or the Stop gate never looks at it. Before Listen it does
// nothing.
func (k *recordKeeper) firstTouch() {
	select {
	case k.urgent <- struct{}{}:
	default:
	}
}

// checkpointLoop writes the records when a request touched them, at most
// once every checkpointEvery, or at once on a first touch, until
// Shutdown, which writes them a last time.
func (s *Server) checkpointLoop() {
	var last time.Time
	for {
		select {
		case <-s.done:
			return
		case <-s.records.urgent:
		case <-s.records.wake:
			select {
			case <-s.done:
				return
			case <-s.records.urgent:
			case <-time.After(time.Until(last.Add(checkpointEvery))):
			}
		}
		s.keepRecords(false)
		last = time.Now()
	}
}

// keepRecords writes both records (writeRecord). final is Shutdown's
// write; a checkpoint that finds Shutdown begun writes nothing, so that
// none lands after the last one — the next daemon may already have read
// and removed it.
func (s *Server) keepRecords(final bool) {
	s.records.mu.Lock()
	defer s.records.mu.Unlock()
	if !final {
		select {
		case <-s.done:
			return
		default:
		}
	}
	s.saveSessions(final)
	s.saveHookMarks(final)
}

// readRecord reads, with load, the record (of what, for the log) an
// earlier daemon of this socket left at path (writeRecord), and removes
// it. One that cannot be read is logged and removed. The caller holds the
// socket's lock, so no daemon writes it meanwhile.
func (s *Server) readRecord(path, what string, load func(io.Reader) (int, error)) {
	f, err := os.Open(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.Log.Warn("cannot read the record an earlier daemon left", "record", what, "path", path, "err", err)
		}
		return
	}
	n, err := load(f)
	f.Close()
	if err != nil {
		s.Log.Warn("the record an earlier daemon left not read", "record", what, "path", path, "err", err)
	} else {
		s.Log.Info("record an earlier daemon left", "record", what, "path", path, "entries", n)
	}
	if err := os.Remove(path); err != nil {
		s.Log.Warn("removing a record an earlier daemon left", "record", what, "path", path, "err", err)
	}
}

// writeRecord writes, with save, the record (of what, for the log) for the
// next daemon of this socket (readRecord), 0600 at path beside the socket,
// through <path>.tmp and a rename; with no entry it removes the record.
// A checkpoint (final false) skips a record whose text is what the file
// holds already. Nothing is written when the daemon has no socket. The
// caller holds records.mu.
func (s *Server) writeRecord(path, what string, save func(io.Writer) (int, error), final bool) {
	if s.socket == "" {
		return
	}
	level := slog.LevelDebug
	if final {
		level = slog.LevelInfo
	}
	var buf bytes.Buffer
	n, err := save(&buf)
	if err != nil {
		s.Log.Warn("cannot keep a record for the next daemon", "record", what, "path", path, "err", err)
		return
	}
	if s.records.written == nil {
		s.records.written = make(map[string][]byte)
	}
	if n == 0 {
		if _, ok := s.records.written[path]; ok || final {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				s.Log.Warn("removing a record with nothing left in it", "record", what, "path", path, "err", err)
			}
			delete(s.records.written, path)
		}
		return
	}
	if old, ok := s.records.written[path]; ok && !final && bytes.Equal(old, buf.Bytes()) {
		return
	}
	tmp := path + ".tmp"
	err = os.WriteFile(tmp, buf.Bytes(), 0o600)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		s.Log.Warn("cannot keep a record for the next daemon", "record", what, "path", path, "err", err)
		return
	}
	s.records.written[path] = buf.Bytes()
	s.Log.Log(context.Background(), level, "record kept for the next daemon", "record", what, "path", path, "entries", n, "final", final)
}
