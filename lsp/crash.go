package lsp

import (
	"time"
)

// This file is the Manager's side of crashes: noticing that an entry's
// server crashed, reaping what it left, and deciding by its CrashPolicy
// whether the next change starts it again (acquire) or is answered
// without it.

// supervise waits until the connection to c, e's server, is gone
// (killing a process that outlives its stream, reapWhenBroken) and,
// unless the server was stopped on purpose, records the crash and kills
// what the server left in its process group (a `go list` of gopls's): no
// orphans.
func (m *Manager) supervise(e *entry, c *Client) {
	c.reapWhenBroken()
	m.mu.Lock()
	crashed := m.crashLocked(e)
	m.mu.Unlock()
	if crashed {
		c.kill()
	}
}

// brokenLocked reports whether e's start is over and its server failed to
// start or broke since (a command not found is not broken: it is retried
// on every use). m.mu must be held.
func (e *entry) brokenLocked() bool {
	select {
	case <-e.ready:
	default:
		return false
	}
	return !e.missing && (e.err != nil || e.client.Err() != nil)
}

// crashLocked records, once, that e's server crashed, and when it may
// start again by m.Crash, if e is still its slot's entry: a server
// stopped on purpose (Restart, idle, Shutdown) left the map first. It
// reports whether e counts as crashed. m.mu must be held.
func (m *Manager) crashLocked(e *entry) bool {
	if e.crash != nil {
		return true
	}
	if m.closed || m.entries[e.key] != e || !e.brokenLocked() {
		return false
	}
	now := m.Now()
	reason := e.err
	if reason == nil {
		reason = e.client.Err()
	}
	e.crashes = m.Crash.record(e.crashes, now)
	at, giveUp := m.Crash.next(e.crashes)
	e.crash = &CrashError{Server: e.key.server, Err: reason, Crashes: m.Crash.inWindow(e.crashes),
		Window: m.Crash.Window, RestartAt: at, GaveUp: giveUp}
	if giveUp {
		m.log.Warn("server crashed too often; not restarting it until `lsp-hook restart`", "server", e.key.server,
			"root", e.root, "crashes", e.crash.Crashes, "window", m.Crash.Window, "err", reason)
	} else {
		m.log.Warn("server crashed; the next change starts it again after its back-off", "server", e.key.server,
			"root", e.root, "backoff", at.Sub(now), "crashes", e.crash.Crashes, "err", reason)
	}
	return true
}

// crashErrLocked is the error of a check at now that e's crashed server
// did not answer, saying how long until it starts again. m.mu must be
// held and e crashed.
func (m *Manager) crashErrLocked(e *entry, now time.Time) *CrashError {
	err := *e.crash
	if !err.GaveUp {
		err.Wait = max(err.RestartAt.Sub(now), 0)
	}
	return &err
}

// restartDueLocked reports whether e, crashed, may be started again at
// now. m.mu must be held.
func (e *entry) restartDueLocked(now time.Time) bool {
	return !e.crash.GaveUp && !now.Before(e.crash.RestartAt)
}

// crashErr is err, the error of a check of e, as a *CrashError when e's
// server crashed (saying when it starts again), else err itself.
func (m *Manager) crashErr(e *entry, err error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.crashLocked(e) {
		return err
	}
	return m.crashErrLocked(e, m.Now())
}
