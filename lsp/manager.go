package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// Server states reported by status (DESIGN.md "LSP client essentials").
const (
	StateStarting    = "starting"
	StateActive      = "active"
	StateBroken      = "broken"
	StateDisabled    = "disabled"
	StateUnavailable = "unavailable"
)

// ShutdownGrace is how long a server gets to exit after shutdown+exit before
// its process group is killed.
const ShutdownGrace = 3 * time.Second

// DefaultStartTimeout is how long a server's start-up (spawn and the
// initialize handshake) may take before the server is declared broken.
// It is longer than any request's budget on purpose: a slow server keeps
// starting in the background while hooks answer without it, and serves the
// hooks that come after.
const DefaultStartTimeout = 60 * time.Second

// stderrStatusLines is how many of a broken server's last stderr lines
// status shows.
const stderrStatusLines = 5

// Manager owns the language server processes of one workspace: one per
// (server, root), started lazily on the first file that needs it, with
// concurrent starts collapsed into one. It shuts down servers left idle,
// closes documents nobody checks any more, starts a crashed server again on
// the next change that needs it (after a back-off, Crash), and restarts
// servers on request. Its methods are safe for concurrent use.
//
// The exported fields are read when the first server starts: set them
// before the first Check, never after.
type Manager struct {
	// IdleServerTimeout is how long a running server may go without a
	// check before it is shut down (it starts again on next use); <= 0
	// never. NewManager sets it from the config (default 10 min).
	IdleServerTimeout time.Duration
	// DocumentIdleTimeout is how long a document stays open in its server
	// without a check naming it before it gets didClose; <= 0 never.
	// NewManager sets it from the config (default 5 min).
	DocumentIdleTimeout time.Duration
	// MaxOpenDocuments caps the documents open in one server; past it the
	// least recently checked get didClose; <= 0 no cap. NewManager sets it
	// from the config (default 200).
	MaxOpenDocuments int
	// StartTimeout bounds a server's start-up, independently of the
	// request that caused it (default DefaultStartTimeout).
	StartTimeout time.Duration
	// WatchFiles makes the manager watch the workspace (one Watcher) and
	// subscribe every client to it (Client.Watch), so out-of-band writes
	// reach the servers. NewManager turns it on. Freshness refuses the
	// unversioned publications of an open document once a server has shown
	// it versions its pushes, so a stale wave a watched-file event provokes
	// never passes for fresh.
	WatchFiles bool
	// WatchPolicy, when not nil, replaces the platform's watch budget and
	// scan settings (defaultWatchPolicy) for the workspace's Watcher: a
	// test forces kqueue's per-file cost with a tiny budget on Linux.
	WatchPolicy *WatchPolicy
	// Crash says when a crashed server starts again by itself
	// (DefaultCrashPolicy).
	Crash CrashPolicy
	// Now is the clock of crashes and back-offs (time.Now): a test sets
	// its own, and moves it past a back-off instead of sleeping.
	Now func() time.Time

	cfg       *config.Config
	workspace string
	installs  sync.Map // server name → struct{}: auto_install tried once per manager
	log       *slog.Logger
	ctx       context.Context // ended by Shutdown: aborts start-ups in progress
	cancel    context.CancelFunc
	bg        sync.WaitGroup // servers being stopped for idleness

	// standInMu guards the stand-in environments of an untrusted
	// workspace (standin.go): their private directory ("" until the first
	// is made; removed at Shutdown) and the pythons found on PATH, by the
	// X.Y wanted.
	standInMu  sync.Mutex
	standInDir string
	bases      map[string]baseInterpreter

	mu      sync.Mutex // guards entries, closed, janitor, watcher, watchReady and every entry's lastUse, inflight, touched
	entries map[entryKey]*entry
	closed  bool
	// wide holds, per server name, the ImportIndex of the whole workspace
	// that finds the importers of a change under other roots (crossroot.go).
	wide map[string]*wideIndex
	// foreignGone holds, per slot, the files of other roots its server
	// was told are gone (crossroot.go: restartForeignBack).
	foreignGone map[entryKey]map[string]bool
	// goneProjects holds the project files (config.Server.ProjectFiles) a
	// check found gone, with when it first did (projectFileChanged): a
	// slot made after that started without the file, so naming it again
	// is no change. Cleared past maxGoneProjects.
	goneProjects map[string]time.Time
	// staleRestarts holds, per file, the hash of the text for which its
	// server was restarted because it left the file out of its build
	// from a stale view (restartForStale): once per text. Cleared past
	// maxStaleRestarts.
	staleRestarts map[string]uint64
	// whole says, per slot, why its server must start with its
	// WarningsOnlyArgs left out (warnings.go), once a check found that.
	whole map[entryKey]string
	// warnings is set once a check asked for diagnostics below error
	// (ShowWarnings).
	warnings atomic.Bool
	janitor  chan struct{} // closed by Shutdown; nil until the first server starts
	// watcher watches the workspace for every client (Client.Watch); it is
	// made when the first server starts, and watchReady is closed once that
	// is over (watcher stays nil if it failed).
	watcher    *Watcher
	watchReady chan struct{}
}

type entryKey struct{ server, root string }

// entry is one (server, root) slot. ready is closed once the start attempt
// is over; client and err are set before that and read-only after.
type entry struct {
	key     entryKey
	server  config.Server
	root    string
	ready   chan struct{}
	client  *Client
	err     error
	missing bool   // the command was not found: state unavailable, retried on next use
	lean    bool   // the server runs with its WarningsOnlyArgs (warnings.go)
	venv    string // the Python virtual environment its settings name (venv.go); "" none
	cancel  context.CancelFunc
	created time.Time // when the slot was made, before its server read any project file (project.go)

	// Guarded by Manager.mu.
	lastUse    time.Time            // when a check last began or ended
	unanswered string               // why the last check got no answer at all (a hung server); "" once one is fresh
	silent     int                  // checks in a row the server, which had answered before, sent nothing at all to (hungChecks)
	inflight   int                  // checks using the entry now
	touched    map[string]time.Time // document path → when a check last named it
	// crashes are the slot's crashes (CrashPolicy.record), carried over
	// from the entry this one replaced; crash is set once this entry's own
	// crash is the last of them (crashLocked), saying when its server may
	// start again.
	crashes []time.Time
	crash   *CrashError

	// docs is held shared by every check syncing documents through client,
	// and exclusively while documents are being closed, so a didClose never
	// crosses a didChange of the same document.
	docs sync.RWMutex
}

// readyClient returns the entry's client once its start is over, nil while
// it is starting or when it failed.
func (e *entry) readyClient() *Client {
	select {
	case <-e.ready:
		return e.client
	default:
		return nil
	}
}

// readyClients returns the clients whose start is over and succeeded
// (broken ones included: what they said last still stands).
func (m *Manager) readyClients() []*Client {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Client
	for _, e := range m.entries {
		if c := e.readyClient(); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// NewManager returns a manager for the workspace root (absolute) using cfg's
// server catalogue, timeouts and lifecycle settings. No server starts until
// Check needs it.
func NewManager(cfg *config.Config, workspace string, log *slog.Logger) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{
		IdleServerTimeout:   cfg.LSP.IdleServerTimeout,
		DocumentIdleTimeout: cfg.LSP.DocumentIdleTimeout,
		MaxOpenDocuments:    cfg.LSP.MaxOpenDocuments,
		StartTimeout:        DefaultStartTimeout,
		WatchFiles:          true,
		Crash:               DefaultCrashPolicy,
		Now:                 time.Now,
		cfg:                 cfg, workspace: workspace, log: log, ctx: ctx, cancel: cancel,
		entries: make(map[entryKey]*entry),
		whole:   make(map[entryKey]string),
	}
}

// ErrUnavailable is returned for a server whose command is not installed.
var ErrUnavailable = errors.New("language server not installed")

// ErrClosed is returned after Shutdown.
var ErrClosed = errors.New("server manager is shut down")

// ErrStarting is returned (with Freshness Timeout) when a request's time
// ran out while its server was still starting; the start-up goes on.
var ErrStarting = errors.New("language server still starting")

// ErrUnknownServer is returned by Restart for a name the config does not
// know.
var ErrUnknownServer = errors.New("no such language server")

// Check brings every server that handles one of docs up to date and waits
// for fresh diagnostics, all servers in parallel, each under its own
// deadline (the config's timeout, or first_touch_timeout when the server is
// cold) and ctx, collecting for settle after the last fresh publication
// (0 means DefaultSettle). It returns one Outcome per (server, root)
// involved; a server still busy when ctx ends is reported as Timeout and
// left to finish alone.
func (m *Manager) Check(ctx context.Context, docs []Doc, settle time.Duration) []Outcome {
	return m.check(ctx, docs, settle, false)
}

// CheckWithin is Check for a batch check (`lsp-hook diagnose`): each server
// may take as long as ctx allows, start-up included, instead of the config's
// per-server timeouts, which are sized for one edit.
func (m *Manager) CheckWithin(ctx context.Context, docs []Doc, settle time.Duration) []Outcome {
	return m.check(ctx, docs, settle, true)
}

func (m *Manager) check(ctx context.Context, docs []Doc, settle time.Duration, withinCtx bool) []Outcome {
	if settle <= 0 {
		settle = DefaultSettle
	}
	m.noteWatchInterest(docs)
	groups := make(map[entryKey][]Doc)
	var order []entryKey
	add := func(k entryKey, ds ...Doc) {
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], ds...)
	}
	for _, d := range docs {
		for _, s := range m.cfg.ServersForPath(d.Path) {
			add(entryKey{s.Name, FindRoot(d.Path, s.RootMarkers, m.workspace)}, d)
		}
	}
	// The importers of a changed file no server checks that a server's
	// languages import (a JSON module) are re-checked as other files
	// (imported.go). Not in a batch check, which checks the files it is
	// given (`diagnose --changed` adds the importers itself: Importers).
	reopened := make(map[entryKey][]string)
	var data map[entryKey][]string
	if !withinCtx {
		data = m.importedDataDocs(ctx, docs)
	}
	for k, ps := range data {
		for _, p := range ps {
			if !slices.ContainsFunc(groups[k], func(g Doc) bool { return g.Path == p }) {
				add(k, Doc{Path: p, Recheck: true})
				reopened[k] = append(reopened[k], p)
			}
		}
	}
	// Files under other roots of a server that import a changed file
	// (a monorepo's packages) are checked by their own root's server,
	// which is sent the change (crossroot.go). Not in a batch check
	// (`lsp-hook diagnose`): it reports the files it is given, not
	// their importers, and those are as they are on disk.
	var skipped []Outcome
	for _, k := range slices.Clone(order) {
		if withinCtx {
			break
		}
		send, past := m.crossRootDocs(ctx, k, groups[k])
		for k2, ds := range send {
			add(k2, ds...)
		}
		skipped = append(skipped, past...)
	}
	// Documents opened again after a project file's change (the server
	// started afresh) are no changed files: their diagnostics are what the
	// change did to them, listed as other files'.
	capped := make(map[entryKey]bool)
	for k, r := range m.reloadProjects(docs) {
		for _, d := range r.docs {
			if !slices.ContainsFunc(groups[k], func(g Doc) bool { return g.Path == d.Path }) {
				add(k, d)
				reopened[k] = append(reopened[k], d.Path)
			}
		}
		if _, ok := groups[k]; !ok {
			add(k)
		}
		capped[k] = r.capped
	}
	results := make(chan struct {
		i int
		o Outcome
	}, len(order))
	for i, k := range order {
		go func() {
			results <- struct {
				i int
				o Outcome
			}{i, m.checkOne(ctx, k, groups[k], settle, withinCtx)}
		}()
	}
	out := make([]Outcome, len(order), len(order)+len(skipped))
	for i, k := range order {
		out[i] = Outcome{Server: k.server, Root: k.root, Freshness: Timeout, Err: context.DeadlineExceeded}
	}
	out = append(out, skipped...)
	for range order {
		select {
		case r := <-results:
			out[r.i] = asOthers(r.o, reopened[order[r.i]], capped[order[r.i]])
		case <-ctx.Done():
			return out
		}
	}
	return out
}

// asOthers moves the files of paths from o's changed files to its other
// files, as files the server had nothing to say of before: every
// diagnostic of theirs is the change's doing. capped says files of the
// project were left out (ErrProjectCap): a fresh answer is then partial.
func asOthers(o Outcome, paths []string, capped bool) Outcome {
	if capped && o.Freshness == Fresh {
		o.Freshness, o.ServerMS = Partial, 0
		o.Err = fmt.Errorf("%w: the files under %s past the first %d", ErrProjectCap, o.Root, MaxProjectDocs)
	}
	for _, p := range paths {
		ds, ok := o.Files[p]
		if !ok {
			continue
		}
		if o.Others == nil {
			o.Others = make(map[string][]diag.Diagnostic)
		}
		o.Others[p] = ds
		delete(o.Files, p)
		delete(o.OthersBefore, p)
	}
	return o
}

// checkOne checks docs in one (server, root) under ctx and the config's
// timeouts, or under ctx alone when withinCtx is set.
func (m *Manager) checkOne(ctx context.Context, k entryKey, docs []Doc, settle time.Duration, withinCtx bool) Outcome {
	begin := time.Now()
	firstTouch, warm := m.cfg.LSP.FirstTouchTimeout, m.cfg.LSP.Timeout
	if t := m.cfg.LSP.Servers[k.server].FirstTouchTimeout; t > 0 {
		firstTouch = t
	}
	if withinCtx {
		firstTouch, warm = time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	}
	ftctx, cancel := context.WithTimeout(ctx, firstTouch)
	defer cancel()
	e, startedNow, failed := m.started(ftctx, k, docs)
	if e == nil {
		if failed.Freshness == Timeout {
			m.log.Info("server checked", "server", k.server, "root", k.root, "freshness", Timeout,
				"files", len(docs), "elapsed_ms", time.Since(begin).Milliseconds(), "err", ErrStarting)
		}
		return failed
	}
	defer m.release(e)
	c := e.client
	if c.reloadDue() {
		m.log.Info("restarting server: a root marker changed since it could not load the workspace", "server", k.server, "root", k.root, "load_error", c.loadFailure())
		m.drop(e)
		return m.checkOne(ctx, k, docs, settle, withinCtx)
	}
	if e.lean {
		if why := m.wholeReason(e, docs); why != "" {
			m.log.Info("restarting server whole: its warnings-only part is needed", "server", k.server, "root", k.root,
				"args", e.server.WarningsOnlyArgs, "reason", why)
			m.drop(e)
			return m.checkOne(ctx, k, docs, settle, withinCtx)
		}
	}
	if name := e.rootProjectChanged(); name != "" {
		m.log.Info("restarting server: its project configuration changed", "server", k.server, "root", k.root, "file", name)
		m.drop(e)
		return m.checkOne(ctx, k, docs, settle, withinCtx)
	}
	if e.server.VirtualEnvSetting != "" {
		// A virtual environment made (uv sync) or removed since the server
		// started: its settings name the old one, and its imports are
		// resolved against it until it starts again.
		if venv := findVirtualEnv(m.workspace, e.root, os.Getenv); venv != e.venv {
			m.log.Info("restarting server: the project's virtual environment changed", "server", k.server, "root", k.root,
				"was", e.venv, "now", venv)
			m.drop(e)
			return m.checkOne(ctx, k, docs, settle, withinCtx)
		}
	}
	timeout := warm
	if startedNow || !c.Touched() {
		timeout = firstTouch
	}
	sctx, cancel2 := context.WithTimeout(ctx, timeout-time.Since(begin))
	defer cancel2()
	answeredBefore, sent := c.Touched(), time.Now()
	e.docs.RLock()
	o := c.Update(sctx, docs, settle)
	e.docs.RUnlock()
	if len(o.staleIgnored) > 0 && o.Err == nil && m.restartForStale(c, o.staleIgnored) {
		m.log.Info("restarting server: it left out of its build a file with no build constraint, from what it loaded before",
			"server", k.server, "root", k.root, "files", o.staleIgnored)
		m.drop(e)
		return m.checkOne(ctx, k, docs, settle, withinCtx)
	}
	if !withinCtx {
		o = importersPartial(o)
	}
	if o.Err != nil && c.Err() != nil { // it crashed on this change: say so, and when it starts again
		o.Err = m.crashErr(e, o.Err)
	}
	// Silent: a server that had answered before sent nothing at all
	// while the check waited to its deadline, for a while — a check its
	// client gave up on (a hook killed by its agent) proves nothing. The
	// wait counts from the check's start, as its deadline does: counted
	// from the send, a timeout equal to hungMinWait (fakelsp's 1 s) fell
	// short by the time before the send, and a loaded `make test` found
	// a hung server not hung (TestHungServerRestarts).
	silent := answeredBefore && !c.heardSince(sent) &&
		errors.Is(sctx.Err(), context.DeadlineExceeded) && time.Since(begin) >= hungMinWait
	if m.noteAnswer(e, o, time.Since(begin), silent) {
		o.Err = m.crashErr(e, o.Err)
		m.background(c.kill)
	}
	m.noteWatchInterest(nil) // the server may have registered FileSystemWatchers meanwhile
	m.log.Info("server checked", "server", k.server, "root", k.root, "freshness", o.Freshness,
		"files", len(docs), "elapsed_ms", time.Since(begin).Milliseconds(), "server_ms", o.ServerMS, "err", o.Err)
	if m.MaxOpenDocuments > 0 && c.openDocCount() > m.MaxOpenDocuments {
		m.background(func() { m.closeStaleDocs(e, time.Now()) })
	}
	return o
}

// maxStaleRestarts bounds Manager.staleRestarts.
const maxStaleRestarts = 64

// restartForStale reports whether c's server is to be restarted for the
// files its answer left out of its build from a stale view
// (Outcome.staleIgnored, config.Server.StaleIgnoredMessages): yes unless
// it was restarted for each of them with the text sent now, and then the
// texts are recorded. A file the build leaves out for a reason the text
// does not show (an ignored directory) says so again after the restart,
// and is not restarted for again.
func (m *Manager) restartForStale(c *Client, paths []string) bool {
	hashes := make([]uint64, len(paths))
	c.mu.Lock()
	for i, p := range paths {
		if d, ok := c.docs[pathToURI(p)]; ok && len(d.sent) > 0 {
			hashes[i] = d.lastSent().hash
		}
	}
	c.mu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.staleRestarts == nil || len(m.staleRestarts)+len(paths) > maxStaleRestarts {
		m.staleRestarts = make(map[string]uint64)
	}
	restart := false
	for i, p := range paths {
		if h, ok := m.staleRestarts[p]; !ok || h != hashes[i] {
			m.staleRestarts[p] = hashes[i]
			restart = true
		}
	}
	return restart
}

// drop takes e out of the map, unless another entry replaced it already,
// and stops its server in the background: the next check of its slot
// starts a new one. A check still using e gets the stopped server's error.
func (m *Manager) drop(e *entry) {
	m.mu.Lock()
	if m.entries[e.key] == e {
		delete(m.entries, e.key)
	}
	m.mu.Unlock()
	m.background(func() { stopEntries([]*entry{e}) })
}

// noteAnswer records for status whether e's server answered a check that
// took took: a check it did not answer at all (a hung or overloaded
// server, which is not broken) is its last error until a check is
// answered fresh. silent says the server, which had answered a change
// before, sent nothing at all while this check waited to its deadline,
// at least hungMinWait. After hungChecks
// such checks in a row the server counts as hung: noteAnswer records it
// as crashed (ErrHung; CrashPolicy says when it starts again) and
// reports true, and the caller kills it.
func (m *Manager) noteAnswer(e *entry, o Outcome, took time.Duration, silent bool) (hung bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch o.Freshness {
	case Fresh:
		e.unanswered = ""
	case Timeout:
		e.unanswered = fmt.Sprintf("no answer to a change within %v (at %s)",
			took.Round(100*time.Millisecond), time.Now().Format(time.TimeOnly))
	}
	if o.Freshness != Timeout || !silent {
		e.silent = 0
		return false
	}
	e.silent++
	if e.silent < hungChecks || m.entries[e.key] != e || e.err != nil {
		return false
	}
	e.err = fmt.Errorf("%w: it sent nothing at all to %d changes in a row (the last waited %v)", ErrHung, e.silent, took.Round(100*time.Millisecond))
	return m.crashLocked(e)
}

// ErrHung says a server that had answered a change before sent nothing at
// all — no publication, progress, log message, request or pull answer —
// while hungChecks checks in a row waited for it to their deadlines
// (clangd 14 wedged so by a document closed and opened while it built
// it: TestClangdSameHeaderTwiceCold). It is killed and counts as crashed:
// a later change starts it again after its back-off (CrashPolicy).
var ErrHung = errors.New("language server hung")

// hungChecks is how many checks in a row a server may send nothing to
// before it counts as hung (ErrHung): two, so that one change whose pass
// outlasts a hook's budget on a loaded machine, silently, restarts
// nothing.
const hungChecks = 2

// hungMinWait is how long a check must have waited, to its deadline, for
// its silence to count towards hungChecks.
const hungMinWait = time.Second

// started acquires k's entry (docs touched now) and waits within ctx for
// its server's start to end. It returns the entry, in use until the
// caller releases it, and whether this call began the start; or, with a
// nil entry, the Outcome that says why there is no running server: the
// crash back-off or a start that failed (None, the crash error), or a
// start still running when ctx ended (Timeout, ErrStarting).
func (m *Manager) started(ctx context.Context, k entryKey, docs []Doc) (*entry, bool, Outcome) {
	begin := time.Now()
	e, startedNow, err := m.acquire(k, docs)
	if err != nil {
		return nil, false, Outcome{Server: k.server, Root: k.root, Freshness: None, Err: err}
	}
	select {
	case <-e.ready:
	case <-ctx.Done():
		m.release(e)
		return nil, false, Outcome{Server: k.server, Root: k.root, Freshness: Timeout,
			Err: fmt.Errorf("%w after %v", ErrStarting, time.Since(begin).Round(time.Millisecond))}
	}
	if e.err != nil {
		m.release(e)
		return nil, false, Outcome{Server: k.server, Root: k.root, Freshness: None, Err: m.crashErr(e, e.err)}
	}
	return e, startedNow, Outcome{}
}

// background runs f on a goroutine Shutdown waits for, unless Shutdown has
// begun.
func (m *Manager) background(f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.bg.Add(1)
	go func() {
		defer m.bg.Done()
		f()
	}()
}

// acquire returns the entry for k, creating it and starting its server in
// the background when there is none, when the last attempt found the
// command missing (it may be installed since), or when its server crashed
// and its back-off is over (the new entry, a new Client with no document
// open, inherits the crash history). It fails with a *CrashError while a
// crashed server's back-off runs or once the policy gave it up. The entry
// counts as in use, with docs touched now, until release. started reports
// whether this call began the start-up.
func (m *Manager) acquire(k entryKey, docs []Doc) (e *entry, started bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, false, ErrClosed
	}
	e, ok := m.entries[k]
	var crashes []time.Time // of the crashed entry this call replaces
	if ok {
		select {
		case <-e.ready:
			ok = !e.missing
		default:
		}
	}
	if ok && m.crashLocked(e) {
		if at := m.Now(); !e.restartDueLocked(at) {
			return nil, false, m.crashErrLocked(e, at)
		}
		ok, crashes = false, e.crashes
		m.log.Info("restarting crashed server", "server", k.server, "root", k.root, "crashes", len(crashes))
	}
	if !ok {
		sctx, cancel := context.WithTimeout(m.ctx, m.StartTimeout)
		e = &entry{key: k, server: m.cfg.LSP.Servers[k.server], root: k.root, ready: make(chan struct{}),
			cancel: cancel, touched: make(map[string]time.Time), crashes: crashes, created: time.Now()}
		m.entries[k] = e
		m.startJanitorLocked()
		if m.WatchFiles {
			m.startWatcherLocked()
		}
		go m.start(sctx, e)
		started = true
	}
	now := time.Now()
	e.inflight++
	e.lastUse = now
	for _, d := range docs {
		e.touched[d.Path] = now
	}
	return e, started, nil
}

// release ends a check's use of e.
func (m *Manager) release(e *entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e.inflight--
	e.lastUse = time.Now()
}

// start runs e's server under ctx (StartTimeout, ended early by Shutdown
// or Restart) and closes e.ready when the attempt is over; a start-up
// that failed counts as a crash (crashLocked). A running server is
// supervised: its crash is recorded and its process group reaped.
func (m *Manager) start(ctx context.Context, e *entry) {
	defer func() {
		close(e.ready)
		if e.err != nil && !e.missing {
			m.mu.Lock()
			m.crashLocked(e)
			m.mu.Unlock()
		}
	}()
	defer e.cancel()
	exe, err := LookPath(e.server.Command[0])
	if err != nil {
		e.err, e.missing = fmt.Errorf("%w: %w", ErrUnavailable, err), true
		m.log.Warn("server unavailable", "server", e.server.Name, "err", err)
		if m.cfg.AutoInstall {
			m.autoInstall(e.server)
		}
		return
	}
	if err := m.trustedProgram(exe); err != nil {
		e.err, e.missing = err, true // retried on next use: the user may trust the workspace
		m.log.Warn("server not started", "server", e.server.Name, "err", err)
		return
	}
	if cmd, whole := m.leanCommand(ctx, e.server, e.key); whole == "" {
		e.server.Command, e.lean = cmd, true
		m.log.Info("server runs without its warnings-only part", "server", e.server.Name, "root", e.root,
			"args", e.server.WarningsOnlyArgs)
	} else if len(e.server.WarningsOnlyArgs) > 0 {
		m.log.Info("server runs whole: its warnings-only part stays on", "server", e.server.Name, "root", e.root,
			"args", e.server.WarningsOnlyArgs, "reason", whole)
	}
	if key := e.server.VirtualEnvSetting; key != "" {
		if venv := findVirtualEnv(m.workspace, e.root, os.Getenv); venv != "" {
			e.venv = venv
			roots := importRoots(venv)
			e.server.Settings = withListSetting(e.server.Settings, key, roots)
			m.log.Info("server gets the virtual environment's packages", "server", e.server.Name, "root", e.root,
				"venv", venv, "setting", key, "dirs", len(roots))
			if key := e.server.VirtualEnvInterpreterSetting; key != "" {
				m.nameInterpreter(e, key, venv, roots)
			}
		}
	}
	e.client, e.err = Start(ctx, e.server, e.root, m.cfg.WorkspaceTrusted, m.log)
	if e.err != nil {
		m.log.Warn("server failed to start", "server", e.server.Name, "root", e.root, "err", e.err)
		return
	}
	e.client.workspace = m.workspace
	sev, err := diag.ParseSeverity(m.cfg.Severity)
	e.client.pullHints(err == nil && diag.SeverityHint.AtLeast(sev))
	go m.supervise(e, e.client)
	if m.WatchFiles {
		go m.watch(e.client)
	}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		e.client.Shutdown(ShutdownGrace)
		e.client, e.err = nil, ErrClosed
	}
}

// Shutdown stops every server (shutdown, exit, then SIGKILL to its process
// group after ShutdownGrace), in parallel, aborting start-ups in progress,
// and returns when all are gone. Later Checks fail with ErrClosed.
func (m *Manager) Shutdown() {
	m.mu.Lock()
	if !m.closed && m.janitor != nil {
		close(m.janitor)
	}
	m.closed = true
	entries := make([]*entry, 0, len(m.entries))
	for _, e := range m.entries {
		entries = append(entries, e)
	}
	m.mu.Unlock()
	m.cancel()
	stopEntries(entries)
	m.bg.Wait()
	m.standInMu.Lock()
	if m.standInDir != "" {
		if err := os.RemoveAll(m.standInDir); err != nil {
			m.log.Warn("removing the stand-in environments", "dir", m.standInDir, "err", err)
		}
		m.standInDir = ""
	}
	m.standInMu.Unlock()
	m.mu.Lock()
	ready := m.watchReady
	m.mu.Unlock()
	if ready != nil {
		<-ready
		if m.watcher != nil {
			m.watcher.Close()
		}
	}
}

// stopEntries aborts the start-up of each entry still starting and stops
// each running server, all in parallel, and returns when all are gone.
func stopEntries(entries []*entry) {
	var wg sync.WaitGroup
	for _, e := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.cancel()
			<-e.ready
			if e.client != nil {
				e.client.Shutdown(ShutdownGrace)
			}
		}()
	}
	wg.Wait()
}

// Warm reports whether every server that would check path is running and
// has answered a change fresh before; a cold server, or a crashed one
// (which a change may start again), needs the first-touch budget.
func (m *Manager) Warm(path string) bool {
	var keys []entryKey // roots are found on disk: outside the lock
	for _, s := range m.cfg.ServersForPath(path) {
		keys = append(keys, entryKey{s.Name, FindRoot(path, s.RootMarkers, m.workspace)})
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		e, ok := m.entries[k]
		if !ok {
			return false
		}
		select {
		case <-e.ready:
			if e.client == nil || e.client.Err() != nil || !e.client.Touched() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Serves reports whether a live language server handles path: an enabled
// server for its extension whose program is installed and which has not
// failed, or crashed and may start again now (a missing server, or a
// broken one in its back-off or given up, is not live). Compiler-mode
// linters in fallback mode run only for files no live server handles.
func (m *Manager) Serves(path string) bool {
	for _, s := range m.cfg.ServersForPath(path) {
		if _, err := LookPath(s.Command[0]); err != nil {
			continue
		}
		k := entryKey{s.Name, FindRoot(path, s.RootMarkers, m.workspace)}
		m.mu.Lock()
		e, ok := m.entries[k]
		down := false
		if ok {
			select {
			case <-e.ready:
				down = e.missing || (m.crashLocked(e) && !e.restartDueLocked(m.Now()))
			default:
			}
		}
		m.mu.Unlock()
		if down {
			continue
		}
		return true
	}
	return false
}

// ErrUntrustedProgram is returned for a server
// whose program lies inside an untrusted workspace: a PATH entry that
// leads into the repository (direnv's PATH_add node_modules/.bin) would
// otherwise run the repository's own copy of a server before anyone ran
// `lsp-hook trust` there (config.Config.WorkspaceTrusted).
var ErrUntrustedProgram = errors.New("the program is the workspace's own; run `lsp-hook trust` here to allow it")

// trustedProgram refuses exe (as LookPath found it) when it lies inside
// the workspace, by its path or where its symlinks lead (ws.Contains), and
// the workspace is not trusted.
func (m *Manager) trustedProgram(exe string) error {
	if m.cfg.WorkspaceTrusted || m.workspace == "" || !ws.Contains(m.workspace, exe) {
		return nil
	}
	return fmt.Errorf("not starting %s: %w", exe, ErrUntrustedProgram)
}
