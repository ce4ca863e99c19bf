package sidecar

import (
	"cmp"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/membudget"
	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// This file keeps the memory budget shared by all of the user's daemons
// (DESIGN.md "Memory"; the records and the choice are package
// internal/membudget's). Every round the daemon measures itself and its
// servers' process trees, writes its record, reads everyone's, and stops
// those of its own servers that the global choice names.

// Rounds of the memory budget, for a daemon (RunDaemon).
const (
	// BudgetEvery is how often a daemon measures and writes its record.
	BudgetEvery = 10 * time.Second
	// BudgetMinIdle is how long a server must go without a check before
	// the budget may stop it: a server between two edits of a working
	// session is not stopped and started again at once.
	BudgetMinIdle = 30 * time.Second
	// BudgetStale is the age past which a record not rewritten is a dead
	// or hung daemon's, ignored and removed.
	BudgetStale = 6 * BudgetEvery
)

// budgetKeeper keeps the memory budget for one daemon.
type budgetKeeper struct {
	dir     string        // the records directory (wire.RecordsDir)
	budget  int64         // bytes; 0 none
	every   time.Duration // BudgetEvery
	minIdle time.Duration // BudgetMinIdle
	stale   time.Duration // BudgetStale
	manager *lsp.Manager
	log     *slog.Logger
	// finished is closed once run has returned and removed the record.
	finished chan struct{}

	mu      sync.Mutex       // guards self, total, daemons, at
	self    membudget.Record // this daemon's record as last written
	total   int64            // bytes held by all daemons at the last round
	daemons int              // daemons counted at the last round
	at      time.Time        // when the last round measured total
}

// resolveBudget turns config's MemoryBudget into bytes: the configured
// size, 0 for none, or DefaultMemoryBudgetShare of the machine's memory
// when not set (0, logged, when that cannot be read).
func resolveBudget(cfg *config.Config, log *slog.Logger) int64 {
	if cfg.MemoryBudget != config.MemoryBudgetAuto {
		return cfg.MemoryBudget
	}
	total, err := proc.TotalMemory()
	if err != nil {
		log.Warn("no memory budget: the machine's memory is unknown; set memory_budget", "err", err)
		return 0
	}
	return int64(float64(total) * config.DefaultMemoryBudgetShare)
}

// newBudgetKeeper prepares the records directory and this daemon's record.
func newBudgetKeeper(s *Server, budget int64) (*budgetKeeper, error) {
	dir := wire.RecordsDir()
	if err := wire.EnsureDir(filepath.Dir(dir)); err != nil {
		return nil, err
	}
	if err := wire.EnsureDir(dir); err != nil {
		return nil, err
	}
	return &budgetKeeper{
		dir: dir, budget: budget, every: BudgetEvery, minIdle: BudgetMinIdle, stale: BudgetStale,
		manager: s.Engine.Manager, log: s.Log, finished: make(chan struct{}),
		self: membudget.Record{Pid: os.Getpid(), Root: s.Engine.Root, Socket: s.socket, Version: s.Version,
			Started: s.start, Budget: budget, Servers: []membudget.Server{}},
	}, nil
}

// run does a round every b.every until done is closed, then removes the
// record and closes b.finished.
func (b *budgetKeeper) run(done <-chan struct{}) {
	defer close(b.finished)
	defer func() {
		if err := membudget.Remove(b.dir, os.Getpid()); err != nil {
			b.log.Warn("memory budget", "err", err)
		}
	}()
	b.round(time.Now())
	tick := time.NewTicker(b.every)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-tick.C:
			b.round(now)
		}
	}
}

// round measures, writes this daemon's record, reads everyone's, and stops
// this daemon's servers among the ones the global choice names; when it
// stopped any, it writes the record again at once, so the other daemons'
// next choice sees the memory freed.
func (b *budgetKeeper) round(now time.Time) {
	running := b.measure(now)
	others, err := membudget.ReadAll(b.dir, now, b.stale)
	if err != nil {
		b.log.Warn("memory budget: reading the other daemons' records", "err", err)
	}
	b.mu.Lock()
	self := b.self
	b.mu.Unlock()
	records := slices.DeleteFunc(others, func(r membudget.Record) bool { return r.Pid == self.Pid })
	records = append(records, self) // this daemon's own, fresh from memory
	plan := membudget.Choose(records, b.budget, b.minIdle, now)
	b.mu.Lock()
	b.total, b.daemons, b.at = plan.Total, len(records), now
	b.mu.Unlock()
	stopped := false
	for _, v := range plan.Stop {
		if v.Daemon != self.Pid || !b.stop(v, running, plan.Total, len(records), now) {
			continue
		}
		stopped = true
	}
	if stopped {
		b.measure(now)
	}
}

// measure reads this daemon's RSS and its servers' trees, and writes the
// record; it returns the servers as the Manager listed them, by name and
// root.
func (b *budgetKeeper) measure(now time.Time) map[membudget.Key]lsp.RunningServer {
	var run []lsp.RunningServer
	if b.manager != nil {
		run = b.manager.Running()
	}
	pids := make([]int, 0, len(run))
	for _, s := range run {
		pids = append(pids, s.Pid)
	}
	rss, err := proc.TreeRSS(pids...)
	if err != nil {
		b.log.Warn("memory budget: servers' memory not measured", "err", err)
	}
	byKey := make(map[membudget.Key]lsp.RunningServer, len(run))
	servers := make([]membudget.Server, 0, len(run))
	for _, s := range run {
		n, ok := rss[s.Pid]
		if !ok {
			n = -1
		}
		byKey[membudget.Key{Daemon: os.Getpid(), Name: s.Name, Root: s.Root}] = s
		servers = append(servers, membudget.Server{Name: s.Name, Root: s.Root, Pid: s.Pid, RSS: n, LastUse: s.LastUse, Busy: s.Busy})
	}
	slices.SortFunc(servers, func(a, c membudget.Server) int { return compareServers(a, c) })
	b.mu.Lock()
	b.self.Written, b.self.RSS, b.self.Servers = now, ReadProcessStats().RSSKiB*1024, servers
	self := b.self
	b.mu.Unlock()
	if err := membudget.Write(b.dir, self); err != nil {
		b.log.Warn("memory budget: writing this daemon's record", "err", err)
	}
	return byKey
}

// stop stops this daemon's server v if it is still as idle as the choice
// saw it, logs it and keeps it for status; it reports whether it stopped.
func (b *budgetKeeper) stop(v membudget.Victim, running map[membudget.Key]lsp.RunningServer, total int64, daemons int, now time.Time) bool {
	s, ok := running[v.Key]
	if !ok || !b.manager.StopIdle(s.Name, s.Root, s.LastUse) {
		return false
	}
	b.log.Info("stopping server over the memory budget", "server", s.Name, "root", s.Root, "pid", s.Pid,
		"rss", config.FormatSize(v.RSS), "total", config.FormatSize(total), "budget", config.FormatSize(b.budget),
		"daemons", daemons, "idle", now.Sub(s.LastUse).Round(time.Second))
	b.mu.Lock()
	defer b.mu.Unlock()
	b.self.Stopped = append(b.self.Stopped, membudget.Stopped{Name: s.Name, Root: s.Root, At: now, RSS: v.RSS, Total: total, Budget: b.budget})
	if n := len(b.self.Stopped); n > membudget.MaxStopped {
		b.self.Stopped = slices.Delete(b.self.Stopped, 0, n-membudget.MaxStopped)
	}
	return true
}

// status is the budget as status shows it.
func (b *budgetKeeper) status() *MemoryStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	return &MemoryStatus{Budget: b.budget, Total: b.total, At: b.at, Daemons: b.daemons, RSS: b.self.RSS,
		Servers: slices.Clone(b.self.Servers), Stopped: slices.Clone(b.self.Stopped), Records: b.dir}
}

// compareServers orders servers by name, then root.
func compareServers(a, b membudget.Server) int {
	return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Root, b.Root))
}
