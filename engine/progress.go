package engine

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// progressInterval is the least time between two redraws of the progress
// line (about ten a second).
const progressInterval = 100 * time.Millisecond

// Progress draws `lsp-hook diagnose`'s progress as one terminal line,
// redrawn in place with a carriage return:
//
//	diagnose  123/456 files  45.6 files/s  ETA 7s
//
// files/s is the mean rate since NewProgress; ETA is the files left at that
// rate, rounded up to a second, and both appear once a file is done. The
// line is drawn when the Progress is made and then at most every 100 ms as
// Add reports files, and Finish clears it. A Progress is safe for
// concurrent use. Write errors are ignored: the line is decoration on a
// terminal, never output anyone parses.
type Progress struct {
	w       io.Writer
	total   int
	enabled bool
	now     func() time.Time
	start   time.Time

	mu       sync.Mutex // guards the fields below and writes to w
	done     int
	drawn    time.Time // when the line was last drawn
	width    int       // length of the line last drawn, to blank it out
	finished bool
}

// NewProgress returns a Progress for total files writing to w (standard
// error), and draws its first line. When enabled is false (w is not a
// terminal: see IsTerminal) it never writes anything.
func NewProgress(w io.Writer, total int, enabled bool) *Progress {
	return newProgressClock(w, total, enabled, time.Now)
}

// newProgressClock is NewProgress with the clock injected.
func newProgressClock(w io.Writer, total int, enabled bool, now func() time.Time) *Progress {
	p := &Progress{w: w, total: total, enabled: enabled, now: now, start: now()}
	if enabled {
		p.mu.Lock()
		p.drawLocked(p.start)
		p.mu.Unlock()
	}
	return p
}

// Add records n more files done and redraws the line unless it was drawn
// less than 100 ms ago. After Finish it does nothing.
func (p *Progress) Add(n int) {
	if !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.done += n
	if t := p.now(); t.Sub(p.drawn) >= progressInterval {
		p.drawLocked(t)
	}
}

// Finish clears the line, leaving the cursor at the start of the empty
// line, so what is printed next starts clean. Calling it again does nothing.
func (p *Progress) Finish() {
	if !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	io.WriteString(p.w, "\r"+strings.Repeat(" ", p.width)+"\r")
}

// drawLocked writes the line for time t over the previous one, padding with
// spaces where the previous one was longer.
func (p *Progress) drawLocked(t time.Time) {
	line := progressLine(p.done, p.total, t.Sub(p.start))
	pad := max(p.width-len(line), 0)
	io.WriteString(p.w, "\r"+line+strings.Repeat(" ", pad))
	p.width = len(line)
	p.drawn = t
}

// maxETA caps the ETA shown, so a stalled run cannot overflow it.
const maxETA = 100 * time.Hour

// progressLine renders the line for done of total files after elapsed:
// "diagnose  123/456 files  45.6 files/s  ETA 7s", without rate and ETA
// while nothing is done or no time has passed; the ETA is at most 100h.
func progressLine(done, total int, elapsed time.Duration) string {
	line := fmt.Sprintf("diagnose  %d/%d files", done, total)
	if done <= 0 || elapsed <= 0 {
		return line
	}
	rate := float64(done) / elapsed.Seconds()
	left := max(total-done, 0)
	eta := time.Duration(min(float64(left)/rate, maxETA.Seconds()) * float64(time.Second))
	return fmt.Sprintf("%s  %.1f files/s  ETA %s", line, rate, roundUp(eta, time.Second))
}

// roundUp rounds d up to a multiple of unit.
func roundUp(d, unit time.Duration) time.Duration {
	if r := d % unit; r != 0 {
		d += unit - r
	}
	return d
}

// IsTerminal reports whether f is a terminal (so a progress line that
// rewrites itself is welcome there). A nil f is not.
func IsTerminal(f *os.File) bool {
	return f != nil && term.IsTerminal(int(f.Fd()))
}
