package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/filelock"
	"github.com/lsp-hook/lsp-hook/internal/privdir"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The spool is what hook runs of one workspace remember between them, in a
// directory beside the daemon's socket (<socket without .sock>.spool, mode
// 0700): the files an event recorded for a later one of the same session
// (Cursor's afterFileEdit for the next postToolUse, Copilot's postToolUse
// for agentStop), and which lint blocks were already delivered (Cursor and
// Copilot also run the hooks of .claude/settings.json, so one change can
// reach lsp-hook twice). Every operation holds an exclusive lock on the
// directory's lock file (internal/filelock: flock(2), or LockFileEx on
// Windows), so concurrent hooks of one change see each other.

// Spool limits.
const (
	// DeliveredTTL is how long a delivered block is remembered: a second
	// run for the same session, files and contents within it prints
	// nothing.
	DeliveredTTL = 2 * time.Minute
	// pendingTTL is how long recorded changes wait for the event that
	// takes them; older ones are dropped.
	pendingTTL = 24 * time.Hour
	// maxPending bounds the changes recorded for one session.
	maxPending = 500
)

// spool is one workspace's spool directory.
type spool struct {
	dir string
}

// openSpool returns the spool beside socket, creating its directory: a
// real directory (not a link), ours, that no other user may enter (0700 on
// unix, an ACL admitting only us on Windows: internal/privdir).
func openSpool(socket string) (*spool, error) {
	dir := strings.TrimSuffix(socket, filepath.Ext(socket)) + ".spool"
	if err := privdir.Make(dir); err != nil {
		var unsafe *privdir.UnsafeError
		if errors.As(err, &unsafe) {
			return nil, fmt.Errorf("hook spool %s is not a private directory of ours: %s", dir, unsafe.Reason)
		}
		return nil, fmt.Errorf("creating hook spool: %w", err)
	}
	return &spool{dir: dir}, nil
}

// locked runs f holding the spool's lock, after dropping expired entries.
func (s *spool) locked(f func() error) error {
	lock, err := os.OpenFile(filepath.Join(s.dir, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening hook spool lock: %w", err)
	}
	defer lock.Close()
	if err := filelock.Lock(lock); err != nil {
		return fmt.Errorf("locking hook spool: %w", err)
	}
	defer filelock.Unlock(lock)
	s.pruneLocked(time.Now())
	return f()
}

// pruneLocked removes delivered records past DeliveredTTL and pending
// changes past pendingTTL.
func (s *spool) pruneLocked(now time.Time) {
	ents, _ := os.ReadDir(s.dir)
	for _, e := range ents {
		ttl := time.Duration(0)
		switch {
		case strings.HasPrefix(e.Name(), "delivered-"):
			ttl = DeliveredTTL
		case strings.HasPrefix(e.Name(), "pending-"):
			ttl = pendingTTL
		default:
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > ttl {
			os.Remove(filepath.Join(s.dir, e.Name()))
		}
	}
}

// pendingFile holds the changes recorded for one agent's session.
type pendingFile struct {
	Agent   string        `json:"agent"`
	Session string        `json:"session"`
	Changes []wire.Change `json:"changes"`
}

func (s *spool) pendingPath(agent, session string) string {
	return filepath.Join(s.dir, "pending-"+digest(agent, session)[:24]+".json")
}

// record adds changes to the session's pending list (their paths and
// modes; the text is read again when they are checked), merging repeats
// and keeping at most maxPending.
func (s *spool) record(agent, session string, changes []wire.Change) error {
	return s.locked(func() error {
		p := s.pendingPath(agent, session)
		pf, err := readPending(p)
		if err != nil {
			return err
		}
		pf.Agent, pf.Session = agent, session
		for _, c := range changes {
			c.Content = nil
			pf.Changes = mergeChanges(pf.Changes, []wire.Change{c})
		}
		if len(pf.Changes) > maxPending {
			pf.Changes = pf.Changes[len(pf.Changes)-maxPending:]
		}
		data, err := json.Marshal(pf)
		if err != nil {
			return err
		}
		tmp := p + ".tmp"
		if err := os.WriteFile(tmp, data, 0o600); err != nil {
			return fmt.Errorf("recording changes: %w", err)
		}
		return os.Rename(tmp, p)
	})
}

// take returns the session's pending changes and forgets them: one event
// takes them, and a concurrent one finds none.
func (s *spool) take(agent, session string) ([]wire.Change, error) {
	var out []wire.Change
	err := s.locked(func() error {
		p := s.pendingPath(agent, session)
		pf, err := readPending(p)
		if err != nil {
			return err
		}
		out = pf.Changes
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("taking recorded changes: %w", err)
		}
		return nil
	})
	return out, err
}

func readPending(p string) (pendingFile, error) {
	var pf pendingFile
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return pf, nil
	}
	if err != nil {
		return pf, fmt.Errorf("reading recorded changes: %w", err)
	}
	if err := json.Unmarshal(data, &pf); err != nil {
		return pendingFile{}, nil // a torn or foreign file: start afresh
	}
	return pf, nil
}

// claim records that the block for this session and these files, with
// their contents as they are now, is being delivered. first is false when
// a run within DeliveredTTL already claimed it: that one delivers, this
// one prints nothing.
func (s *spool) claim(agent, session string, changes []wire.Change) (first bool, err error) {
	key := deliveredKey(agent, session, changes, true)
	err = s.locked(func() error {
		f, err := os.OpenFile(filepath.Join(s.dir, "delivered-"+key), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("recording the delivered block: %w", err)
		}
		first = true
		return f.Close()
	})
	return first, err
}

// noteFiles records each file of a delivered block on its own (session,
// path, content), and, for each tool call of calls that changed it
// (Event.Calls), (session, call, path, content), for skipDelivered.
func (s *spool) noteFiles(agent, session string, changes []wire.Change, calls map[string][]string) error {
	return s.locked(func() error {
		for _, c := range changes {
			c = withContent(c) // read once for every key
			keys := []string{deliveredFileKey(agent, session, "", c)}
			for _, id := range calls[c.Path] {
				keys = append(keys, deliveredFileKey(agent, session, id, c))
			}
			for _, key := range keys {
				if err := os.WriteFile(filepath.Join(s.dir, key), nil, 0o600); err != nil {
					return fmt.Errorf("recording a delivered file: %w", err)
				}
			}
		}
		return nil
	})
}

// skipDelivered returns the changes noteFiles did not record within
// DeliveredTTL: a file with the same content and, when calls names the
// tool calls that changed it (Event.Calls), for every one of those calls
// — a block delivered for the same content by another call says nothing
// of this one (the file may have held other texts in between, and what
// it uses changed). Without calls, the same content is enough.
func (s *spool) skipDelivered(agent, session string, changes []wire.Change, calls map[string][]string) ([]wire.Change, error) {
	var out []wire.Change
	err := s.locked(func() error {
		for _, c := range changes {
			ids := calls[c.Path]
			if len(ids) == 0 {
				ids = []string{""}
			}
			keyed := withContent(c) // read once for every key
			for _, id := range ids {
				if _, err := os.Stat(filepath.Join(s.dir, deliveredFileKey(agent, session, id, keyed))); err != nil {
					out = append(out, c)
					break
				}
			}
		}
		return nil
	})
	return out, err
}

// withContent returns c with the file's content read from disk when the
// change does not carry it (deliveredKey's hash of it), or c as it is when
// it carries it or the file cannot be read (hashed as missing).
func withContent(c wire.Change) wire.Change {
	if c.Content != nil {
		return c
	}
	if data, err := os.ReadFile(c.Path); err == nil {
		text := string(data)
		c.Content = &text
	}
	return c
}

// deliveredFileKey names noteFiles' record of one file of a delivered
// block: by content alone when call is "", else by the tool call too.
func deliveredFileKey(agent, session, call string, c wire.Change) string {
	if call == "" {
		return "delivered-file-" + deliveredKey(agent, session, []wire.Change{c}, true)
	}
	return "delivered-call-" + deliveredKey(agent, session+"\x00"+call, []wire.Change{c}, false)
}

// deliveredKey names a delivered block: sha256 over the agent, session,
// and each file's path and content hash (a file that cannot be read
// hashes as missing), sorted by path, and with written, its modification
// time (ns; "missing"). A key by content alone (not by a tool call)
// takes the time: it tells one write from another of the same text. The
// two runs of one change (Event.Once) see the same write, while a file
// broken, fixed and broken the same way again within DeliveredTTL was
// written anew, and its block is delivered again — by content alone it
// was taken as delivered, and the agent, whose last answer for the file
// was the fix's, heard nothing of the error. A key by tool call needs no
// time: another write is another call.
func deliveredKey(agent, session string, changes []wire.Change, written bool) string {
	var parts []string
	for _, c := range changes {
		var sum [32]byte
		if c.Content != nil {
			sum = sha256.Sum256([]byte(*c.Content))
		} else if data, err := os.ReadFile(c.Path); err == nil {
			sum = sha256.Sum256(data)
		} else {
			sum = sha256.Sum256([]byte("\x00missing"))
		}
		part := c.Path + "\x00" + hex.EncodeToString(sum[:])
		if written {
			mtime := "missing"
			if fi, err := os.Stat(c.Path); err == nil {
				mtime = strconv.FormatInt(fi.ModTime().UnixNano(), 10)
			}
			part += "\x00" + mtime
		}
		parts = append(parts, part)
	}
	slices.Sort(parts)
	return digest(append([]string{agent, session}, parts...)...)[:32]
}

// digest is the hex sha256 of parts joined by NUL.
func digest(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])
}
