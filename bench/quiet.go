package main

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// A hook answers as soon as the edited file's diagnostics are fresh, but
// its server may go on working after that: gopls re-checks the packages
// that import the edited one and runs its analyzers. A baseline started at
// that moment would share the CPUs with that work and look slower than it
// is, to the hook's advantage. So before each baseline the bench waits
// until the workspace's daemon tree is idle (quiet), and part 2 reports how
// long it was busy after the hook answered.

// idleTicks is how much CPU the daemon tree may use over one cooldown and
// still count as idle, in clock ticks of 1/100 s (USER_HZ of
// /proc/<pid>/stat on Linux; cpuTicks).
const idleTicks = 1

// quietDeadline bounds quiet's wait: a tree still busy after it (gopls
// loading a large module on a first touch) is not waited for further.
const quietDeadline = 2 * time.Minute

// quiet waits until ws's daemon and every process under it (its servers and
// what they started, such as go list) have used at most idleTicks of CPU
// over the last cooldown, polling (there is no event for "idle"),
// or until quietDeadline or ctx ends. It always takes at least one
// cooldown, so it stands in for pause, and returns how long the tree was
// busy before its idle cooldown began (to the poll step, cooldown/5).
// Without a daemon it is pause.
func (b *bench) quiet(ctx context.Context, ws *workspace) time.Duration {
	pid := b.daemonPid(ctx, ws)
	if pid == 0 {
		b.pause(ctx)
		return 0
	}
	window := b.opts.cooldown
	type sample struct {
		at    time.Time
		ticks int64
	}
	begin := time.Now()
	hist := []sample{{begin, treeTicks(pid)}}
	tick := time.NewTicker(max(window/5, 10*time.Millisecond))
	defer tick.Stop()
	for {
		var now time.Time
		select {
		case <-ctx.Done():
			return 0
		case now = <-tick.C:
		}
		cur := treeTicks(pid)
		hist = append(hist, sample{now, cur})
		// Keep the newest sample at least a window old, and those after it.
		for len(hist) > 1 && !hist[1].at.After(now.Add(-window)) {
			hist = hist[1:]
		}
		if now.Sub(hist[0].at) >= window && cur-hist[0].ticks <= idleTicks {
			return hist[0].at.Sub(begin)
		}
		if now.Sub(begin) >= quietDeadline {
			b.progressf("%s: the daemon's processes still busy after %s; not waiting longer", ws.name, quietDeadline)
			return now.Sub(begin)
		}
	}
}

// daemonPid is the pid of ws's daemon, looked up with status once and again
// when it is gone; 0 when no daemon runs or status fails.
func (b *bench) daemonPid(ctx context.Context, ws *workspace) int {
	if ws.peer {
		if ws.pid > 1 && alive(ws.pid) {
			return ws.pid
		}
		return 0
	}
	if !ws.daemon {
		return 0
	}
	if ws.pid != 0 && alive(ws.pid) {
		return ws.pid
	}
	st, up, err := b.status(ctx, ws)
	if err != nil || !up {
		return 0
	}
	ws.pid = st.Pid
	return ws.pid
}

// treeTicks is the CPU time of pid and of every process under it, in
// clock ticks: user and system time, with that of their children already
// waited for (a finished go list's time moves to its parent, so the sum
// does not drop when it exits).
func treeTicks(pid int) int64 {
	sum := cpuTicks(pid)
	for p := range descendants(pid) {
		sum += cpuTicks(p)
	}
	return sum
}

// statTicks is cpuTicks of the content of a /proc/<pid>/stat; 0 when it
// has too few fields.
func statTicks(s string) int64 {
	// The command name, field 2, is in parentheses and may hold spaces and
	// parentheses: the fields after the last ')' start at field 3, state.
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 15 {
		return 0
	}
	var sum int64
	for _, v := range f[11:15] {
		n, _ := strconv.ParseInt(v, 10, 64)
		sum += n
	}
	return sum
}
