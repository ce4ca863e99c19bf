// Package membudget is the memory budget shared by all of one user's
// daemons (DESIGN.md "Memory"): every daemon writes a small record of
// itself — its pid, workspace root, its own RSS and each running language
// server's, with when a check last used it — into one directory of the
// user's runtime dir, and reads everyone's. Choose, given the records and
// the budget, names the servers to stop: the least recently used idle
// ones, over all daemons, until the total fits. Every daemon computes the
// same choice from the same records and stops only its own servers among
// it, so no two daemons stop theirs for the same excess.
//
// membudget imports internal/proc and internal/safefile, nothing else of
// lsp-hook's; sidecar runs it for the daemon and cmd reads it for
// `lsp-hook status --all`.
package membudget

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/internal/safefile"
)

// Record is what one daemon shares about itself, as <pid>.json in the
// records directory. Sizes are bytes; times are wall-clock instants (all
// daemons share one machine's clock).
type Record struct {
	Pid     int       `json:"pid"`
	Root    string    `json:"root"`
	Socket  string    `json:"socket,omitempty"`
	Version string    `json:"version,omitempty"`
	Started time.Time `json:"started"`
	// Written is when the daemon wrote the record; one not rewritten
	// within ReadAll's stale age is a dead or hung daemon's.
	Written time.Time `json:"written"`
	// Budget is the budget this daemon keeps, in bytes; 0 none.
	Budget int64 `json:"budget"`
	// RSS is the daemon process's own resident set in bytes (its servers
	// are counted in Servers); 0 when not measured.
	RSS int64 `json:"rss"`
	// Servers are the daemon's running language servers.
	Servers []Server `json:"servers"`
	// Stopped are the servers this daemon stopped for the budget, the
	// most recent last, at most MaxStopped.
	Stopped []Stopped `json:"stopped,omitempty"`
}

// Server is one running language server in a Record.
type Server struct {
	Name string `json:"name"`
	Root string `json:"root"`
	Pid  int    `json:"pid"`
	// RSS is the resident set of the server's process tree (the server and
	// every process it started) in bytes; -1 when it could not be measured,
	// and then it is neither counted nor stopped.
	RSS int64 `json:"rss"`
	// LastUse is when a check last began or ended on the server.
	LastUse time.Time `json:"last_use"`
	// Busy is true while a check is using the server.
	Busy bool `json:"busy,omitempty"`
}

// Stopped is a server stopped because the total passed the budget: what
// it held, and the total and budget that decided it (bytes).
type Stopped struct {
	Name   string    `json:"name"`
	Root   string    `json:"root"`
	At     time.Time `json:"at"`
	RSS    int64     `json:"rss"`
	Total  int64     `json:"total"`
	Budget int64     `json:"budget"`
}

// MaxStopped bounds Record.Stopped.
const MaxStopped = 20

// maxRecordBytes bounds the reading of one record file.
const maxRecordBytes = 1 << 20

// recordExt names record files: <pid>.json.
const recordExt = ".json"

// Write writes r into dir as <pid>.json atomically: into a temporary file
// of dir first, renamed over the old record, so a reader never sees half a
// record.
func Write(dir string, r Record) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encoding the memory record: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-"+strconv.Itoa(r.Pid)+"-*")
	if err != nil {
		return fmt.Errorf("writing the memory record: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing the memory record %s: %w", f.Name(), err)
	}
	if err := os.Rename(f.Name(), Path(dir, r.Pid)); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing the memory record: %w", err)
	}
	return nil
}

// Path is the record file of the daemon pid in dir.
func Path(dir string, pid int) string { return filepath.Join(dir, strconv.Itoa(pid)+recordExt) }

// Remove deletes the record of the daemon pid from dir, as the daemon
// exits; a record already gone is no error.
func Remove(dir string, pid int) error {
	if err := os.Remove(Path(dir, pid)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing the memory record: %w", err)
	}
	return nil
}

// ReadAll reads every record in dir, ordered by pid. A record of a daemon
// that is no longer running, or not rewritten for stale (a hung daemon, or
// a pid reused by another program), is left out and its file removed, as
// are temporary files older than stale and files that are not records. A
// dir that does not exist holds no records.
func ReadAll(dir string, now time.Time, stale time.Duration) ([]Record, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the memory records: %w", err)
	}
	var out []Record
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), ".tmp-") {
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > stale {
				os.Remove(p)
			}
			continue
		}
		r, err := readRecord(p)
		if err != nil || !proc.Alive(r.Pid) || now.Sub(r.Written) > stale {
			os.Remove(p)
			continue
		}
		out = append(out, r)
	}
	sortRecords(out)
	return out, nil
}

// readRecord reads and decodes the record file p, whose name must be its
// pid's.
func readRecord(p string) (Record, error) {
	var r Record
	f, fi, err := safefile.Open(p)
	if err != nil {
		return r, err
	}
	defer f.Close()
	data, err := safefile.ReadAll(f, fi, maxRecordBytes)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("decoding %s: %w", p, err)
	}
	if filepath.Base(p) != strconv.Itoa(r.Pid)+recordExt {
		return r, fmt.Errorf("%s holds the record of pid %d", p, r.Pid)
	}
	return r, nil
}
