package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/load"
	"github.com/shirou/gopsutil/v4/mem"
)

// childTimeout bounds every child process the bench runs; a hook, a build
// or a gopls check taking longer means something is broken, not slow.
const childTimeout = 2 * time.Minute

// bench holds what every measurement shares: the options, a private
// temporary tree, the environment children run with, and the workspaces a
// daemon may have been started for.
type bench struct {
	opts       options
	tmp        string // root of everything this run creates; removed by close
	runDir     string // $XDG_RUNTIME_DIR of the children: short, so socket paths stay under 108 bytes
	env        []string
	progress   io.Writer
	machine    machine
	workspaces []*workspace // every workspace created, in order; stopDaemons walks it
	stopped    bool         // stopDaemons has run
	peer       *peer        // the peer of section 9 once found; nil before or without it
	peerDirs   []string     // directories where the peer's daemon may run; stopDaemons stops them
}

// newBench creates the temporary tree under /tmp (short paths; $TMPDIR can
// be long), checks that gopls is on PATH, and records the machine.
func newBench(ctx context.Context, opts options, progress io.Writer) (*bench, error) {
	gopls, err := exec.LookPath("gopls")
	if err != nil {
		return nil, errors.New("gopls is not on PATH (make tools; PATH=$PWD/.tools/bin:$PATH)")
	}
	base := "/tmp"
	if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
		base = os.TempDir()
	}
	tmp, err := os.MkdirTemp(base, "lhb")
	if err != nil {
		return nil, fmt.Errorf("creating the temporary tree: %w", err)
	}
	b := &bench{opts: opts, tmp: tmp, progress: progress}
	if b.tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		b.close()
		return nil, fmt.Errorf("resolving %s: %w", tmp, err)
	}
	b.runDir = filepath.Join(b.tmp, "run")
	cfgDir := filepath.Join(b.tmp, "config")
	for _, d := range []string{b.runDir, cfgDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			b.close()
			return nil, fmt.Errorf("creating %s: %w", d, err)
		}
	}
	goenv, err := output(ctx, "", os.Environ(), "go", "env", "GOENV", "GOFLAGS")
	if err != nil {
		b.close()
		return nil, fmt.Errorf("running go env: %w", err)
	}
	file, goflags, _ := strings.Cut(goenv, "\n")
	b.env = childEnv(b.runDir, cfgDir, file, goflags)
	b.machine = b.describeMachine(ctx, gopls)
	return b, nil
}

// childEnv is this process's environment with lsp-hook pointed at the
// bench's own runtime and config directories (so a user's daemon, socket
// override or config play no part), the Go toolchain kept local and
// offline, go's own settings file kept where it was (it lives under the
// config directory we move), and go's VCS stamping off: the workspaces are
// git repositories without a commit, where go build of a main package
// fails to stamp. goflags is GOFLAGS as go sees it (go env GOFLAGS, from
// the environment or go's settings file), which -buildvcs=false joins.
func childEnv(runDir, cfgDir, goenv, goflags string) []string {
	if !strings.Contains(goflags, "-buildvcs") {
		goflags = strings.TrimSpace(goflags + " -buildvcs=false")
	}
	set := map[string]string{
		"GOFLAGS":            goflags,
		"XDG_RUNTIME_DIR":    runDir,
		"XDG_CONFIG_HOME":    cfgDir,
		"GOENV":              goenv,
		"LSP_HOOK_LOG_LEVEL": "info", // the per-run breakdown is read from info records
		"GOWORK":             "off",
		"GOTOOLCHAIN":        "local",
		"GOPROXY":            "off",
	}
	drop := map[string]bool{"LSP_HOOK_SOCKET": true}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok && !drop[k] {
			env = append(env, kv)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// close stops the daemons if that has not been done, and removes the
// temporary tree unless -keep.
func (b *bench) close() error {
	if !b.stopped {
		for _, note := range b.stopDaemons() {
			fmt.Fprintln(b.progress, "bench: cleanup:", note)
		}
	}
	if b.opts.keep {
		fmt.Fprintln(b.progress, "bench: kept", b.tmp)
		return nil
	}
	if err := os.RemoveAll(b.tmp); err != nil {
		return fmt.Errorf("removing %s: %w", b.tmp, err)
	}
	return nil
}

// progressf prints one progress line to stderr, for the person waiting.
func (b *bench) progressf(format string, args ...any) {
	fmt.Fprintf(b.progress, "bench: "+format+"\n", args...)
}

// execResult is one finished child process: its wall time from start to
// exit, its output, and its exit code.
type execResult struct {
	wall   time.Duration
	stdout []byte
	stderr []byte
	code   int
}

// combined is the child's stdout then stderr.
func (r execResult) combined() string { return string(r.stdout) + string(r.stderr) }

// exec runs name with args in dir, with the bench environment and stdin,
// and times it from start to exit. A non-zero exit is reported in code, not
// as an error: callers decide what it means. Not starting, or being killed
// at childTimeout or by ctx, is an error.
func (b *bench) exec(ctx context.Context, dir string, stdin []byte, name string, args ...string) (execResult, error) {
	return b.execEnv(ctx, dir, b.env, stdin, name, args...)
}

// execEnv is exec with the environment env instead of the bench's.
func (b *bench) execEnv(ctx context.Context, dir string, env []string, stdin []byte, name string, args ...string) (execResult, error) {
	ctx, cancel := context.WithTimeout(ctx, childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	return runTimed(ctx, cmd, cmd.Run, dir, env, stdin)
}

// execGroup is execEnv with the child in a process group of its own
// (internal/proc), for a program that signals its own group: the peer's
// client, racing its daemon, once killed the group it was started in, the
// bench with it.
func (b *bench) execGroup(ctx context.Context, dir string, env []string, stdin []byte, name string, args ...string) (execResult, error) {
	ctx, cancel := context.WithTimeout(ctx, childTimeout)
	defer cancel()
	child := proc.Command(ctx, name, args...)
	return runTimed(ctx, child.Cmd, child.Run, dir, env, stdin)
}

// runTimed runs cmd with run (its Run, or its proc.Child's) in dir with
// env and stdin, timing it from start to exit, as exec documents.
func runTimed(ctx context.Context, cmd *exec.Cmd, run func() error, dir string, env []string, stdin []byte) (execResult, error) {
	name, args := cmd.Path, cmd.Args[1:]
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	begin := time.Now()
	err := run()
	r := execResult{wall: time.Since(begin), stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return r, fmt.Errorf("running %s %s: %w", filepath.Base(name), strings.Join(args, " "), ctx.Err())
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		return r, fmt.Errorf("running %s: %w", name, err)
	}
	return r, nil
}

// output runs a short command and returns its trimmed stdout; a non-zero
// exit is an error carrying stderr.
func output(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// machine is the header of the report: what the numbers were measured on.
type machine struct {
	started  time.Time
	cpus     int
	cpuModel string
	memory   string // MemTotal, human readable
	kernel   string
	load     string // 1, 5 and 15 minute load averages at the start
	endLoad  string // the same at the end of the measurements
	goVer    string
	gopls    string // version line
	goplsBin string
	lspHook  string // `lsp-hook version` output
	bin      string
	tools    map[string]string // langSpec.key → versions of its server and baseline tools (toolVersions)
}

// describeMachine gathers the header; what cannot be read shows as "?".
func (b *bench) describeMachine(ctx context.Context, goplsBin string) machine {
	m := machine{started: time.Now(), cpus: runtime.NumCPU(), cpuModel: "?", memory: "?", kernel: "?", goplsBin: goplsBin, bin: b.opts.bin}
	if cpus, err := cpu.Info(); err == nil && len(cpus) > 0 && cpus[0].ModelName != "" {
		m.cpuModel = cpus[0].ModelName
	}
	if vm, err := mem.VirtualMemory(); err == nil {
		m.memory = fmt.Sprintf("%.1f GiB", float64(vm.Total)/(1<<30))
	}
	if k, err := host.KernelVersion(); err == nil && k != "" {
		m.kernel = k
	}
	m.load = loadAvg()
	m.goVer = orUnknown(output(ctx, "", b.env, "go", "env", "GOVERSION"))
	m.gopls = orUnknown(output(ctx, "", b.env, goplsBin, "version"))
	m.gopls = strings.TrimPrefix(firstLine([]byte(m.gopls), nil), "golang.org/x/tools/gopls ")
	m.lspHook = orUnknown(output(ctx, "", b.env, b.opts.bin, "version"))
	m.tools = make(map[string]string)
	for _, l := range langSpecs {
		m.tools[l.key] = b.toolVersions(ctx, l)
	}
	return m
}

// onlineEnv is the children's environment with the user's GOPROXY back,
// for preparing a workspace: downloading what a copied module needs, never
// while timing (b.env keeps GOPROXY=off).
func (b *bench) onlineEnv() []string {
	return withEnv(b.env, "GOPROXY="+os.Getenv("GOPROXY"))
}

// loadAvg is the 1, 5 and 15 minute load averages now (gopsutil's
// load.Avg: /proc/loadavg on Linux, sysctl vm.loadavg on macOS), or "?".
func loadAvg() string {
	if l, err := load.Avg(); err == nil {
		return fmt.Sprintf("%.2f %.2f %.2f", l.Load1, l.Load5, l.Load15)
	}
	return "?"
}

// firstLine is the first line of data, trimmed, or "?" on error.
func firstLine(data []byte, err error) string {
	if err != nil {
		return "?"
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(line)
}

// orUnknown is s, or "?" on error.
func orUnknown(s string, err error) string {
	if err != nil || s == "" {
		return "?"
	}
	return s
}
