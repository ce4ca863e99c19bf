package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// hookTimes is where one hook run's time went, as the daemon and the hook
// logged it (slog text records in the workspace log, one per run):
//
//   - hook: `msg="hook answered"` elapsed_ms — the hook process from reading
//     its event to printing the answer, so wall − hook is process start,
//     flag parsing and exit;
//   - daemon: `msg=notify_change` elapsed_ms — the daemon's work on the
//     request;
//   - server: `msg="server checked" server=NAME` elapsed_ms — the wait for
//     the server's fresh diagnostics, including the settle window after them
//     (and the server's start on a first touch);
//   - serverOnly: the same record's server_ms — from sending the change to
//     the last changed document being fresh, the settle window excluded.
//     Older daemons do not log it.
//
// A value is -1 when its record or attribute is missing. Milliseconds, as
// logged.
type hookTimes struct {
	hook, daemon, server, serverOnly float64
}

// elapsedRE and serverMsRE find the elapsed_ms and server_ms attributes of
// a log record.
var (
	elapsedRE  = regexp.MustCompile(`\belapsed_ms=(\d+(?:\.\d+)?)`)
	serverMsRE = regexp.MustCompile(`\bserver_ms=(\d+(?:\.\d+)?)`)
)

// logCursor reads the records a workspace log gained since the last read.
type logCursor struct {
	path string
	off  int64 // bytes already read
}

// newLogCursor starts at the current end of path (0 when it does not exist
// yet).
func newLogCursor(path string) *logCursor {
	c := &logCursor{path: path}
	if fi, err := os.Stat(path); err == nil {
		c.off = fi.Size()
	}
	return c
}

// next parses the records appended since the last call into hookTimes,
// reading the "server checked" records of server; the last record of each
// kind wins.
func (c *logCursor) next(server string) (hookTimes, error) {
	t := hookTimes{hook: -1, daemon: -1, server: -1, serverOnly: -1}
	f, err := os.Open(c.path)
	if err != nil {
		return t, fmt.Errorf("opening the daemon log: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(c.off, io.SeekStart); err != nil {
		return t, fmt.Errorf("reading the daemon log: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return t, fmt.Errorf("reading the daemon log: %w", err)
	}
	// Only whole lines: a record being written is read next time.
	end := strings.LastIndexByte(string(data), '\n') + 1
	c.off += int64(end)
	for line := range strings.Lines(string(data[:end])) {
		m := elapsedRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ms, _ := strconv.ParseFloat(m[1], 64)
		switch {
		case strings.Contains(line, `msg="hook answered"`):
			t.hook = ms
		case strings.Contains(line, `msg=notify_change `):
			t.daemon = ms
		case strings.Contains(line, `msg="server checked"`) && strings.Contains(line, " server="+server+" "):
			t.server, t.serverOnly = ms, -1
			if m := serverMsRE.FindStringSubmatch(line); m != nil {
				t.serverOnly, _ = strconv.ParseFloat(m[1], 64)
			}
		}
	}
	return t, nil
}

// msDuration converts logged milliseconds to a Duration.
func msDuration(ms float64) time.Duration {
	return time.Duration(ms * float64(time.Millisecond))
}
