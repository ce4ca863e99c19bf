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
//   - gopls: `msg="server checked" server=gopls` elapsed_ms — the wait for
//     gopls's fresh diagnostics, including the settle window after them.
//
// A value is -1 when its record is missing. Milliseconds, as logged.
type hookTimes struct {
	hook, daemon, gopls float64
}

// elapsedRE finds the elapsed_ms attribute of a log record.
var elapsedRE = regexp.MustCompile(`\belapsed_ms=(\d+)`)

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

// next parses the records appended since the last call into hookTimes; the
// last record of each kind wins.
func (c *logCursor) next() (hookTimes, error) {
	t := hookTimes{hook: -1, daemon: -1, gopls: -1}
	if c.path == "" {
		return t, nil
	}
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
		case strings.Contains(line, `msg="server checked"`) && strings.Contains(line, " server=gopls "):
			t.gopls = ms
		}
	}
	return t, nil
}

// msDuration converts logged milliseconds to a Duration.
func msDuration(ms float64) time.Duration {
	return time.Duration(ms * float64(time.Millisecond))
}
