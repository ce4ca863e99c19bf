package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// claudeEvent is the PostToolUse event Claude Code sends after its Edit
// tool changed path (the hooks package documents the shape); the hook reads
// the edited file from disk.
func claudeEvent(cwd, path string) []byte {
	ev := map[string]any{
		"session_id":      "lsp-hook-bench",
		"cwd":             cwd,
		"hook_event_name": "PostToolUse",
		"tool_name":       "Edit",
		"tool_input":      map[string]any{"file_path": path, "old_string": "x", "new_string": "y"},
		"tool_response":   map[string]any{"filePath": path, "success": true},
	}
	data, err := json.Marshal(ev)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return data
}

// hook runs `lsp-hook hook claude` in ws for an Edit of path, as Claude Code
// would, and returns its wall time and the lint block it answered with (""
// when it printed nothing: the file is clean). The hook must exit 0 and
// print either nothing or the PostToolUse answer. It marks ws as having a
// daemon to stop.
func (b *bench) hook(ctx context.Context, ws *workspace, path string) (time.Duration, string, error) {
	ws.daemon = true
	return b.runHook(ctx, ws.dir, path)
}

// runHook is hook for the workspace root dir, touching no shared state, so
// that many can run at once (the caller marks the workspace's daemon).
func (b *bench) runHook(ctx context.Context, dir, path string) (time.Duration, string, error) {
	return b.hookEvent(ctx, dir, claudeEvent(dir, path))
}

// hookEvent is runHook for any PostToolUse event (an Edit's, a Write's).
func (b *bench) hookEvent(ctx context.Context, dir string, event []byte) (time.Duration, string, error) {
	r, err := b.exec(ctx, dir, event, b.opts.bin, "hook", "claude")
	if err != nil {
		return 0, "", err
	}
	if r.code != 0 {
		return 0, "", fmt.Errorf("hook exited %d (hooks must exit 0): %s", r.code, strings.TrimSpace(r.combined()))
	}
	if len(strings.TrimSpace(string(r.stdout))) == 0 {
		return r.wall, "", nil
	}
	var answer struct {
		Out struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(r.stdout, &answer); err != nil {
		return 0, "", fmt.Errorf("decoding the hook's answer %q: %w", r.stdout, err)
	}
	if answer.Out.Event != "PostToolUse" {
		return 0, "", fmt.Errorf("hook answered for event %q, want PostToolUse: %s", answer.Out.Event, r.stdout)
	}
	return r.wall, answer.Out.Context, nil
}

// daemonStatus is the part of `lsp-hook status --json` the bench reads.
type daemonStatus struct {
	Running bool `json:"running"`
	Pid     int  `json:"pid"`
	Servers []struct {
		Name  string `json:"name"`
		State string `json:"state"`
		Pid   int    `json:"pid"`
	} `json:"servers"`
}

// status asks ws's daemon for its status; up is false when none runs.
func (b *bench) status(ctx context.Context, ws *workspace) (st daemonStatus, up bool, err error) {
	r, err := b.exec(ctx, ws.dir, nil, b.opts.bin, "status", "--json")
	if err != nil {
		return st, false, err
	}
	if r.code != 0 {
		return st, false, fmt.Errorf("status exited %d: %s", r.code, strings.TrimSpace(r.combined()))
	}
	if strings.HasPrefix(string(r.stdout), "no daemon running") {
		return st, false, nil
	}
	if err := json.Unmarshal(r.stdout, &st); err != nil {
		return st, false, fmt.Errorf("decoding status --json %q: %w", r.stdout, err)
	}
	// status --json answers {"running": false, "pid": 0} when no daemon
	// runs: taking that pid 0 as a daemon made stopDaemon reap every
	// process under pid 0, the whole machine.
	if !st.Running || st.Pid <= 1 {
		return st, false, nil
	}
	return st, true, nil
}

// stopDaemons stops the daemon of every workspace a hook ran in with
// `lsp-hook stop`, then checks that the daemon and its servers really
// exited (DESIGN.md: no orphans, ever); a survivor is killed by its pid
// and reported. It returns one note per problem, and runs once.
func (b *bench) stopDaemons() []string {
	if b.stopped {
		return nil
	}
	b.stopped = true
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var notes []string
	for _, ws := range b.workspaces {
		notes = append(notes, b.stopDaemon(ctx, ws)...)
	}
	for _, dir := range b.peerDirs {
		notes = append(notes, b.stopPeer(ctx, dir)...)
	}
	return notes
}

// stopPeer stops the peer's daemon for dir, if one runs, with its own stop
// command, then checks that it and its servers exited, as stopDaemon does
// for lsp-hook's; a survivor is killed and reported.
func (b *bench) stopPeer(ctx context.Context, dir string) []string {
	pid := b.peer.daemonPid(ctx, b, dir)
	if pid == 0 {
		return nil
	}
	pids := descendants(pid)
	pids[pid] = peerName + " daemon"
	var notes []string
	if err := b.peer.stop(ctx, b, dir); err != nil {
		notes = append(notes, fmt.Sprintf("%s: %v", dir, err))
	}
	return append(notes, reapSurvivors(dir+" ("+peerName+")", pids, 5*time.Second)...)
}

// stopDaemon stops ws's daemon, if a hook ran there, as stopDaemons does,
// and marks ws as having none; it returns one note per problem.
func (b *bench) stopDaemon(ctx context.Context, ws *workspace) []string {
	if !ws.daemon {
		return nil
	}
	var notes []string
	st, up, err := b.status(ctx, ws)
	if err != nil {
		notes = append(notes, fmt.Sprintf("%s: status before stop: %v", ws.name, err))
	}
	if !up {
		ws.daemon = err != nil // unknown: stopDaemons asks again
		return notes
	}
	pids := descendants(st.Pid) // gopls and whatever it started (its telemetry child, go list)
	pids[st.Pid] = "daemon"
	for _, s := range st.Servers {
		if s.Pid != 0 {
			pids[s.Pid] = s.Name
		}
	}
	r, err := b.exec(ctx, ws.dir, nil, b.opts.bin, "stop")
	if err == nil && r.code != 0 {
		err = fmt.Errorf("exit %d: %s", r.code, strings.TrimSpace(r.combined()))
	}
	if err != nil {
		notes = append(notes, fmt.Sprintf("%s: lsp-hook stop: %v", ws.name, err))
	}
	ws.daemon, ws.pid = false, 0
	return append(notes, reapSurvivors(ws.name, pids, 5*time.Second)...)
}

// reapSurvivors waits up to grace for every pid to exit, then kills those
// still alive and says so: each is a process lsp-hook should have ended.
func reapSurvivors(wsName string, pids map[int]string, grace time.Duration) []string {
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		running := false
		for pid := range pids {
			running = running || alive(pid)
		}
		if !running {
			return nil
		}
		time.Sleep(50 * time.Millisecond) // polling: there is no exit event for a non-child
	}
	var notes []string
	for pid, what := range pids {
		if pid <= 1 || pid == os.Getpid() {
			notes = append(notes, fmt.Sprintf("%s: %s pid %d not killed: not a process the bench started", wsName, what, pid))
			continue
		}
		if alive(pid) {
			kill(pid)
			notes = append(notes, fmt.Sprintf("%s: %s pid %d still running %s after lsp-hook stop; killed it", wsName, what, pid, grace))
		}
	}
	return notes
}

// procMem is a process's resident memory now and at its peak, in KiB
// (readProcMem). It counts the process alone, not its children.
type procMem struct {
	pid       int
	rss, peak int64
}

// memRow is part 4 for one workspace: its daemon, its language servers,
// and any other process under the daemon.
type memRow struct {
	ws      *workspace
	label   string // the row's name in the table; ws.name when ""
	daemon  procMem
	servers []namedMem // one per server process the daemon runs, named by its catalogue name
	others  []namedMem // other descendants of the daemon, e.g. gopls's telemetry child
}

// name is the row's name in the table.
func (r memRow) name() string { return orDefault(r.label, r.ws.name) }

// namedMem is the memory of a process named by its command line.
type namedMem struct {
	procMem
	cmd string
}

// memory reads the memory of the daemon and its servers in each workspace
// where a hook ran, after the runs.
func (b *bench) memory(ctx context.Context) ([]memRow, error) {
	var rows []memRow
	for _, ws := range b.workspaces {
		if !ws.daemon {
			continue
		}
		row, err := b.memOf(ctx, ws)
		if err != nil {
			return rows, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// memOf reads the memory of ws's daemon, of each server it reports in
// status, and of every other process under it.
func (b *bench) memOf(ctx context.Context, ws *workspace) (memRow, error) {
	row := memRow{ws: ws}
	st, up, err := b.status(ctx, ws)
	if err != nil {
		return row, err
	}
	if !up {
		return row, fmt.Errorf("%s: no daemon running after the runs", ws.name)
	}
	if row.daemon, up = readProcMem(st.Pid); !up {
		return row, fmt.Errorf("%s: reading /proc/%d/status of the daemon", ws.name, st.Pid)
	}
	servers := make(map[int]bool)
	for _, s := range st.Servers {
		servers[s.Pid] = true
		if m, ok := readProcMem(s.Pid); ok {
			row.servers = append(row.servers, namedMem{procMem: m, cmd: s.Name})
		}
	}
	for pid, cmd := range descendants(st.Pid) {
		if m, ok := readProcMem(pid); ok && !servers[pid] {
			row.others = append(row.others, namedMem{procMem: m, cmd: cmd})
		}
	}
	slices.SortFunc(row.others, func(a, b namedMem) int { return a.pid - b.pid })
	return row, nil
}

// serversRSS is the sum of the servers' VmRSS, in KiB.
func (r memRow) serversRSS() int64 {
	var sum int64
	for _, s := range r.servers {
		sum += s.rss
	}
	return sum
}

// treeRSS is the sum of the VmRSS of the daemon and every process under
// it (servers and others), in KiB: what the user's machine pays for the
// workspace. Pages two processes share count twice.
func (r memRow) treeRSS() int64 {
	sum := r.daemon.rss + r.serversRSS()
	for _, o := range r.others {
		sum += o.rss
	}
	return sum
}

// logPath is ws's daemon log, which hooks write to as well: beside the
// socket, $XDG_RUNTIME_DIR/lsp-hook/<first 16 hex of sha256(root)>.log
// (DESIGN.md "Socket and wire protocol"; wire.LogPath).
func (b *bench) logPath(ws *workspace) string {
	sum := sha256.Sum256([]byte(ws.dir))
	return filepath.Join(b.runDir, "lsp-hook", hex.EncodeToString(sum[:])[:16]+".log")
}
