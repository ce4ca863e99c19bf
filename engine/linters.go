package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/parsers"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Compiler mode: the `linters:` of config (and the built-ins) run as child
// processes for the files a check names, their output read by a parser
// (package parsers) and merged into the same lint block as the language
// servers' diagnostics.
//
// A linter applies to a file when it is enabled, serves the file's
// extension, belongs to the phase (edit checks run LinterOnEdit linters;
// diagnose runs both), its required config file exists, and — in
// LinterFallback mode — no live language server serves the file. A
// built-in whose program is missing is skipped quietly; a configured one is
// reported unavailable. A program inside the workspace runs only in a
// trusted workspace (programs.go). One run covers every file whose expanded command
// and directory are the same: a command with the list placeholders {files}
// or {dirs} (config.Linter.Command) runs once per check and directory for
// all of them. Linters read files from disk.

// linterSlots bounds how many linter processes run at once in this process
// (go vet over 40 packages must not start 40 builds on 2 cores).
var linterSlots = make(chan struct{}, max(runtime.NumCPU(), 2))

// Limits on what a linter run may print: stderr is read as the output when
// stdout is blank (go vet over many packages prints there), so it gets as
// much room.
const (
	maxLinterStdout = 64 << 20
	maxLinterStderr = 64 << 20
)

// Phases a check runs in: an edit check (hooks, notify) or diagnose.
// The Stop gate's check (wire.PhaseStop) runs linters as an edit check
// does (phaseOf).
const (
	phaseEdit     = config.LinterOnEdit
	phaseDiagnose = config.LinterOnDiagnose
)

// linterRun is one execution of a linter: argv and directory after
// placeholder expansion, and the checked files it covers.
type linterRun struct {
	linter config.Linter
	argv   []string
	dir    string
	files  []string
	// template is argv before the list placeholders were filled in: a run
	// split by directory fills them again for each part.
	template []string
}

// linterOutcome is how one run fared: its diagnostics by file and the
// ServerResult that reports it.
type linterOutcome struct {
	byFile map[string][]diag.Diagnostic
	result wire.ServerResult
}

// LinterStatus is one linter in `status`: name, State ("active" after a
// good run, "broken" after a failed one, "unavailable" when its program is
// missing), Runs and Failures counted since the daemon started, LastMS the
// last run's wall time in milliseconds, and LastError.
type LinterStatus struct {
	Name      string `json:"name"`
	State     string `json:"state"`
	Runs      int64  `json:"runs"`
	Failures  int64  `json:"failures"`
	LastMS    int64  `json:"last_ms"`
	LastError string `json:"last_error,omitempty"`
}

// linterStats keeps LinterStatus per linter for status.
type linterStats struct {
	mu sync.Mutex // guards m
	m  map[string]*LinterStatus
}

func (s *linterStats) record(r wire.ServerResult, elapsed time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[string]*LinterStatus)
	}
	st := s.m[r.Name]
	if st == nil {
		st = &LinterStatus{Name: r.Name}
		s.m[r.Name] = st
	}
	st.State, st.LastError, st.LastMS = r.State, r.Error, elapsed.Milliseconds()
	st.Runs++
	if r.Error != "" {
		st.Failures++
	}
}

func (s *linterStats) list() []LinterStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]LinterStatus, 0, len(s.m))
	for _, name := range slices.Sorted(mapsKeys(s.m)) {
		out = append(out, *s.m[name])
	}
	return out
}

// LinterStatus returns every linter that has run or failed to, by name.
func (e *Engine) LinterStatus() []LinterStatus { return e.linterStats.list() }

// lint runs the linters that apply to targets in phase, in parallel, under
// ctx, and returns their diagnostics by file (only for target files), one
// ServerResult per run, and the target files a run was for (linted: a
// linter looked at them, or its result says why it could not).
func (e *Engine) lint(ctx context.Context, targets []target, phase string) (byFile map[string][]diag.Diagnostic, results []wire.ServerResult, linted map[string]bool) {
	runs, skipped := e.linterRuns(targets, phase)
	linted = make(map[string]bool)
	for _, r := range runs {
		for _, f := range r.files {
			linted[f] = true
		}
	}
	isTarget := make(map[string]bool, len(targets))
	for _, t := range targets {
		isTarget[t.path] = true
	}
	outcomes := make([]linterOutcome, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select { // at most linterSlots processes at once, across checks
			case linterSlots <- struct{}{}:
				defer func() { <-linterSlots }()
			case <-ctx.Done():
				outcomes[i] = linterOutcome{result: wire.ServerResult{Name: r.linter.Name, Kind: wire.KindLinter, Root: r.dir,
					State: lsp.StateActive, Freshness: string(lsp.Timeout), Error: "linter " + r.linter.Name + ": no time left to run"}}
				return
			}
			begin := time.Now()
			outcomes[i] = e.runLinterSplit(ctx, r)
			e.linterStats.record(outcomes[i].result, time.Since(begin))
		}()
	}
	wg.Wait()
	byFile = make(map[string][]diag.Diagnostic)
	results = skipped
	for _, o := range outcomes {
		results = append(results, o.result)
		for path, ds := range o.byFile {
			if isTarget[path] {
				byFile[path] = append(byFile[path], ds...)
			}
		}
	}
	return byFile, results, linted
}

// linterRuns plans the runs for targets in phase, one per distinct
// (argv, dir), and reports configured linters that cannot run.
func (e *Engine) linterRuns(targets []target, phase string) ([]linterRun, []wire.ServerResult) {
	var runs []linterRun
	index := make(map[string]int) // argv+dir → runs index
	var skipped []wire.ServerResult
	reported := make(map[string]bool)
	for _, name := range slices.Sorted(mapsKeys(e.Config.Linters)) {
		l := e.Config.Linters[name]
		if !l.Enabled || (phase == phaseEdit && l.When == config.LinterOnDiagnose) {
			continue
		}
		for _, t := range targets {
			if !l.Serves(filepath.Ext(t.path)) || (l.Mode == config.LinterFallback && e.serverLive(t.path)) ||
				!requiresMet(l, e.linterRoot(l, t)) {
				continue
			}
			argv, dir := e.expand(l, t)
			exe, err := e.linterPath(argv[0], dir)
			if err != nil {
				if untrusted := (*untrustedProgramError)(nil); errors.As(err, &untrusted) {
					e.untrustedProgs.add(name, untrusted)
					e.Log.Warn("linter skipped: its program is the untrusted workspace's own", "linter", name, "program", untrusted.program)
				} else if !l.Builtin && !reported[name] {
					reported[name] = true
					skipped = append(skipped, wire.ServerResult{Name: name, Kind: wire.KindLinter, State: lsp.StateUnavailable,
						Freshness: string(lsp.None), Error: fmt.Sprintf("linter %s: %v", name, err)})
					e.Log.Warn("linter unavailable", "linter", name, "err", err)
				}
				break
			}
			argv[0] = exe
			k := strings.Join(argv, "\x00") + "\x00\x00" + dir
			if i, ok := index[k]; ok {
				runs[i].files = append(runs[i].files, t.path)
				continue
			}
			index[k] = len(runs)
			runs = append(runs, linterRun{linter: l, argv: argv, dir: dir, files: []string{t.path}})
		}
	}
	for i := range runs {
		runs[i].template = runs[i].argv
		runs[i].argv = expandLists(runs[i].argv, runs[i].files)
	}
	return runs, skipped
}

// runLinterSplit runs r; when r covers files in several directories and
// failed without a word about any file, it runs again once per directory,
// so one part the tool cannot load does not cost the others their
// diagnostics (`go vet a b` checks neither when b holds two packages).
// The parts run one after another in r's slot.
func (e *Engine) runLinterSplit(ctx context.Context, r linterRun) linterOutcome {
	o := e.runLinter(ctx, r)
	if o.result.State != lsp.StateBroken || ctx.Err() != nil {
		return o
	}
	byDir := make(map[string][]string)
	for _, f := range r.files {
		byDir[filepath.Dir(f)] = append(byDir[filepath.Dir(f)], f)
	}
	if len(byDir) < 2 || !slices.ContainsFunc(r.template, config.IsListPlaceholder) {
		return o
	}
	e.Log.Info("linter run split by directory after a failure", "linter", r.linter.Name, "dir", r.dir, "dirs", len(byDir))
	merged := linterOutcome{byFile: make(map[string][]diag.Diagnostic), result: o.result}
	merged.result.State, merged.result.Freshness, merged.result.Error = lsp.StateActive, string(lsp.Fresh), ""
	for _, dir := range slices.Sorted(mapsKeys(byDir)) {
		part := r
		part.files = byDir[dir]
		part.argv = expandLists(r.template, part.files)
		po := e.runLinter(ctx, part)
		for path, ds := range po.byFile {
			merged.byFile[path] = append(merged.byFile[path], ds...)
		}
		if po.result.Error != "" && merged.result.Error == "" {
			merged.result.State, merged.result.Freshness = po.result.State, po.result.Freshness
			merged.result.Error = fmt.Sprintf("%s (in %s)", po.result.Error, dir)
		}
	}
	return merged
}

// expandLists replaces each argument of argv that is a list placeholder:
// {files} by files, {dirs} by their distinct directories, both sorted.
func expandLists(argv, files []string) []string {
	out := make([]string, 0, len(argv)+len(files))
	for _, a := range argv {
		switch a {
		case "{files}":
			out = append(out, slices.Sorted(slices.Values(files))...)
		case "{dirs}":
			dirs := make([]string, len(files))
			for i, f := range files {
				dirs[i] = filepath.Dir(f)
			}
			slices.Sort(dirs)
			out = append(out, slices.Compact(dirs)...)
		default:
			out = append(out, a)
		}
	}
	return out
}

// requiresMet reports whether one of l.Requires exists in root, the
// linter's root for a file (true when l requires nothing).
func requiresMet(l config.Linter, root string) bool {
	for _, f := range l.Requires {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			return true
		}
	}
	return len(l.Requires) == 0
}

// linterRoot is l's root for target t: the nearest directory from t's up
// to the workspace root holding one of l.RootMarkers, else the workspace
// root.
func (e *Engine) linterRoot(l config.Linter, t target) string {
	if len(l.RootMarkers) == 0 {
		return e.Root
	}
	return lsp.FindRoot(t.path, l.RootMarkers, e.Root)
}

// serverLive reports whether a language server that is installed and not
// known to be broken serves path.
// Without a Manager (the hook's in-process fallback) it is whether one is
// configured and installed.
func (e *Engine) serverLive(path string) bool {
	if e.Manager != nil {
		return e.Manager.Serves(path)
	}
	for _, s := range e.Config.ServersForPath(path) {
		if Installed(s) {
			return true
		}
	}
	return false
}

// Installed reports whether server s's program can be found (lsp.LookPath).
func Installed(s config.Server) bool {
	_, err := lsp.LookPath(s.Command[0])
	return err == nil
}

// expand replaces the placeholders {file}, {root}, {dir} and {rel} in l's
// command and directory for target t; a relative directory is taken from
// the workspace root. {root} is the linter's root for t when l has root
// markers. The list placeholders {files} and {dirs}, whole arguments, are
// left for expandLists once a run's files are known.
func (e *Engine) expand(l config.Linter, t target) ([]string, string) {
	r := strings.NewReplacer("{file}", t.path, "{root}", e.linterRoot(l, t), "{dir}", filepath.Dir(t.path), "{rel}", t.rel)
	argv := make([]string, len(l.Command))
	for i, a := range l.Command {
		if config.IsListPlaceholder(a) {
			argv[i] = a
			continue
		}
		argv[i] = r.Replace(a)
	}
	dir := r.Replace(l.Cwd)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(e.Root, dir)
	}
	return argv, dir
}

// runLinter executes r under ctx and its own timeout, in its own process
// group (killed whole on timeout) and in the environment config.ProgramEnv
// gives the workspace's programs (untrusted: GOTOOLCHAIN=local, no
// GOFLAGS), and parses what it printed: stdout, or stderr when stdout is
// blank (go vet and compilers print there). A run that exits non-zero
// without a diagnostic, prints what its parser cannot read, or times out
// is an error in the result, never "clean".
func (e *Engine) runLinter(ctx context.Context, r linterRun) linterOutcome {
	name := r.linter.Name
	res := wire.ServerResult{Name: name, Kind: wire.KindLinter, Root: r.dir, State: lsp.StateActive, Freshness: string(lsp.Fresh)}
	fail := func(state string, fresh lsp.Freshness, err error) linterOutcome {
		res.State, res.Freshness, res.Error = state, string(fresh), fmt.Sprintf("linter %s: %v", name, err)
		e.Log.Warn("linter failed", "linter", name, "dir", r.dir, "err", err)
		return linterOutcome{result: res}
	}
	parser, format, err := linterParser(r.linter)
	if err != nil {
		return fail(lsp.StateBroken, lsp.None, err)
	}
	rctx, cancel := context.WithTimeout(ctx, r.linter.Timeout)
	defer cancel()
	begin := time.Now()
	stdout, stderr, code, err := runCommand(rctx, r.argv, r.dir, config.ProgramEnv(os.Environ(), nil, e.Config.WorkspaceTrusted))
	elapsed := time.Since(begin).Round(time.Millisecond)
	if rctx.Err() != nil {
		return fail(lsp.StateActive, lsp.Timeout, fmt.Errorf("timed out after %v", elapsed))
	}
	if err != nil {
		return fail(lsp.StateBroken, lsp.None, err)
	}
	out := stdout
	if len(bytes.TrimSpace(out)) == 0 {
		out = stderr
	}
	var ds []diag.Diagnostic
	if format != nil {
		ds, _, err = parsers.Read(format.Name, bytes.NewReader(out), r.dir, name)
	} else {
		ds, err = parsers.ReadWith(parser, diag.UnitBytes, bytes.NewReader(out), r.dir, name)
	}
	switch {
	case err != nil && code != 0: // it failed, printing its own error rather than findings
		return fail(lsp.StateBroken, lsp.None, fmt.Errorf("exited %d: %s", code, firstLine(out)))
	case err != nil:
		return fail(lsp.StateBroken, lsp.None, fmt.Errorf("reading its output: %w", err))
	}
	if len(ds) == 0 && code != 0 {
		return fail(lsp.StateBroken, lsp.None, fmt.Errorf("exited %d without a diagnostic: %s", code, firstLine(stderr, stdout)))
	}
	byFile := make(map[string][]diag.Diagnostic)
	var fileless []diag.Diagnostic
	for _, d := range ds {
		switch {
		case d.Path == "" && len(r.files) == 1:
			d.Path, d.Line = r.files[0], max(d.Line, 1) // a file-less message of a one-file run is about that file
		case d.Path == "":
			fileless = append(fileless, d) // about the run, not one of its files
			continue
		}
		byFile[d.Path] = append(byFile[d.Path], d)
	}
	if len(fileless) > 0 {
		e.Log.Warn("linter printed messages about no file", "linter", name, "dir", r.dir, "first", fileless[0].Message)
		if len(byFile) == 0 && code != 0 {
			return fail(lsp.StateBroken, lsp.None, fmt.Errorf("exited %d: %s", code, fileless[0].Message))
		}
	}
	e.Log.Info("linter ran", "linter", name, "dir", r.dir, "files", len(r.files), "diagnostics", len(ds),
		"exit", code, "elapsed_ms", elapsed.Milliseconds())
	return linterOutcome{byFile: byFile, result: res}
}

// linterParser returns the parser for l: a registered format (non-nil
// *parsers.Format, "auto" included), or an errorformat parser.
func linterParser(l config.Linter) (parsers.Parser, *parsers.Format, error) {
	if l.Parser == "errorformat" {
		p, err := parsers.Errorformat(l.Errorformat)
		return p, nil, err
	}
	f, err := parsers.Lookup(l.Parser)
	return nil, f, err
}

// runCommand runs argv in dir with env (config.ProgramEnv) and returns
// what it printed (stdout capped at 64 MiB, stderr at 64 KiB) and its exit
// code. An error means it could not be run or was killed; a non-zero exit
// is not an error. It runs as a proc.Child: its own process group, killed
// whole when ctx ends, and with the daemon.
func runCommand(ctx context.Context, argv []string, dir string, env []string) (stdout, stderr []byte, code int, err error) {
	child := proc.Command(ctx, argv[0], argv[1:]...)
	cmd := child.Cmd
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = nil
	cmd.WaitDelay = time.Second
	var out, errb cappedBuffer
	out.max, errb.max = maxLinterStdout, maxLinterStderr
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = child.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		code, err = exit.ExitCode(), nil
	default:
		return nil, nil, 0, fmt.Errorf("running %s: %w", argv[0], err)
	}
	if out.over || errb.over && len(bytes.TrimSpace(out.Bytes())) == 0 {
		return nil, nil, code, fmt.Errorf("output over %d MiB", maxLinterStdout>>20)
	}
	return out.Bytes(), errb.Bytes(), code, nil
}

// cappedBuffer keeps the first max bytes written and notes when more came.
type cappedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// firstLine returns the first non-blank line of the first output that has
// one, for an error message.
func firstLine(outputs ...[]byte) string {
	for _, o := range outputs {
		for _, l := range strings.Split(string(o), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return l
			}
		}
	}
	return "(no output)"
}

// phaseOf returns p's phase, "edit" when unset.
func phaseOf(p wire.NotifyChangeParams) string {
	if p.Phase == phaseDiagnose {
		return phaseDiagnose
	}
	return phaseEdit
}
