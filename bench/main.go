// Command bench measures lsp-hook against baselines taken in the same run
// (DESIGN.md "What is measured", issue 3 "Measure and report") and prints
// one report of medians, percentiles and ratios:
//
//  1. json: the hook round trip for an Edit of a JSON file with a syntax
//     error, daemon warm, against `lsp-hook version` (a bare process start);
//  2. go: a warm Go edit → lint block through the hook, against `go build
//     ./...`, `go vet ./PKG` (the edited package) and `gopls check FILE`
//     after the same edit, on a small demo module and on copies of two real
//     modules (module.go): gopkg.in/yaml.v3, one package of ~11k lines, and
//     gopls's own module, ~116k lines in ~100 packages, edited in
//     internal/settings, a package in the middle of its import graph;
//  3. langs: per live language (Go, Python, TypeScript, C) on the projects
//     of testdata/langs, a warm edit → lint block through the hook against
//     the command a hook-writer would otherwise run after every edit (`go
//     vet ./...`, `pyright FILE`, `tsc --noEmit -p .`, `clang -fsyntax-only
//     FILE` or gcc's when clang is missing), with p50 and p95, and where
//     the hook's time beyond the server's own goes, from the daemon log:
//     the daemon's processing (goal ≤ 5 ms at p50), the settle window, and
//     the hook process with its socket round trip (overhead.go);
//  4. memory: the resident memory of each daemon and of its servers;
//  5. diagnose: `lsp-hook diagnose` over a whole real Go and TypeScript
//     project, once, against `go vet ./...` and `tsc --noEmit -p .`, with
//     wall time and peak memory (diagnose.go);
//  6. mcp: warm lsp_goto_definition and lsp_find_references through
//     `lsp-hook mcp` against the same request sent straight to a gopls the
//     bench starts, p50 over 20 calls (mcp.go);
//  7. load: gopls, pyright, typescript-language-server and clangd active in
//     one daemon (first touch of each, the daemon's RSS alone, each
//     server's, the tree's), then 200 hook processes started at once over
//     50 Go, TypeScript, Python, JSON and YAML files: p50, p99 and max of
//     their wall times, failures, timeouts and wrong answers (load.go);
//  8. prewarm: per live language, on fresh copies of the projects of
//     testdata/langs, the first edit of a session without prewarm (the
//     hook starts the daemon), and 2 s and 10 s after a Claude Code
//     SessionStart hook, each ÷ a warm edit (issue 16: goal ≤ 1.5× at
//     10 s), and the SessionStart hook's own wall time against `lsp-hook
//     version` (prewarm.go). It takes about a minute and a half, most of
//     it the two waits per language.
//
// The report opens with a summary (summary.go): every goal of issues 7 and 16
// with its figure, baseline, ratio and verdict, then the figures the issues
// asks for without a goal (warm edit against each language's per-edit
// command, first touch per language). -md FILE also writes the report as
// Markdown, with the machine and the command that reproduces it (make bench
// writes docs/benchmarks.md); -note adds a sentence about the run to it.
//
// -only selects sections (-only json,langs), -langs the languages of parts
// 3 and 8 (-langs py,ts). Machines are noisy, so the claims are ratios between
// measurements taken interleaved in one run, not absolute times. In parts
// 2 and 3 each baseline runs once the workspace's daemon and servers are
// idle (quiet.go), so a server's work after the hook answered is not billed
// to it.
// Everything runs in a private temporary tree (with its own
// $XDG_RUNTIME_DIR, so the daemons are the bench's own); the daemons are
// stopped and the tree removed at the end, on error and on Ctrl-C too.
//
// Usage (from the module root; the servers must be on PATH, as make bench
// puts them):
//
//	go run ./bench -bin bin/lsp-hook [-only json,go,langs,memory,diagnose,mcp,load,prewarm] [-langs go,py,ts,c] [-module M] [-multi M -multi-pkg DIR] [-md FILE [-note TEXT]]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// main runs the bench until done or interrupted; Ctrl-C still stops the
// daemons and removes the temporary tree. Started as the supervisor of a
// child (internal/proc, on macOS), it is that instead.
func main() {
	proc.SupervisorMain()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// options are the command-line flags of one bench run.
type options struct {
	bin       string        // lsp-hook binary, absolute
	demo      string        // demo module to copy; a small one is generated when it does not exist
	module    string        // module path, in this module's requirements, copied as the large single-package workspace
	multi     string        // module path copied as the large multi-package workspace; "" for none (module.go)
	multiPkg  string        // the package of multi the edits go to, relative to its root
	jsonN     int           // timed iterations of the JSON round trip and of its baseline
	goN       int           // timed Go edits per workspace, after the untimed first touch
	cooldown  time.Duration // pause between measurements, so one's background work is not billed to the next
	keep      bool          // keep the temporary tree, for debugging
	only      *setFlag      // sections to run (allSections)
	langs     *setFlag      // languages of parts 3 and 8 (go, py, ts, c)
	langsDir  string        // directory holding the projects of part 3
	langN     int           // timed edits per language, after the untimed first touch
	peer      string        // -peer: the cli-lsp-client binary of section 9; "" for none
	worktrees int           // -worktrees: how many worktrees section 13 runs
	md        string        // -md: the Markdown report's path; "" for none
	note      string        // -note: a sentence about the run for the Markdown report
	args      []string      // the arguments as given, for the Markdown report's command
}

// runs reports whether -only selects s.
func (o options) runs(s section) bool { return o.only.has(string(s)) }

// parseOptions reads the flags; -bin is required.
func parseOptions(args []string, stderr io.Writer) (options, error) {
	o := options{only: newSectionFlag(), langs: newLangFlag(), args: args}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.bin, "bin", "", "lsp-hook binary to measure (required)")
	fs.StringVar(&o.demo, "demo", "testdata/demo", "demo module to copy (generated when missing)")
	fs.StringVar(&o.module, "module", "gopkg.in/yaml.v3", "module from this module's requirements to copy as the large workspace (≥ 10k lines)")
	fs.StringVar(&o.multi, "multi", diagGoModule, "multi-package module to copy as a second large workspace (≥ 50k lines, ≥ 30 packages): a requirement of this module, or "+diagGoModule+" at the version of the gopls on PATH; \"\" for none")
	fs.StringVar(&o.multiPkg, "multi-pkg", "internal/settings", "package of -multi the Go edits go to, relative to its root: one that others import")
	fs.IntVar(&o.jsonN, "json-n", 30, "timed iterations of the JSON round trip and of `lsp-hook version`")
	fs.IntVar(&o.goN, "go-n", 20, "timed Go edits per workspace, after the first touch")
	fs.DurationVar(&o.cooldown, "cooldown", 250*time.Millisecond, "pause between measurements; before a baseline, how long the daemon and its servers must have been idle")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary tree (daemons are still stopped)")
	fs.Var(o.only, "only", "comma-separated sections to run: "+strings.Join(o.only.all, ","))
	fs.Var(o.langs, "langs", "comma-separated languages of the langs and prewarm sections: "+strings.Join(o.langs.all, ","))
	fs.StringVar(&o.langsDir, "langs-dir", "testdata/langs", "directory of the per-language projects")
	fs.IntVar(&o.langN, "lang-n", 20, "timed edits per language, after the first touch")
	fs.StringVar(&o.peer, "peer", "", "the peer's binary, cli-lsp-client (make bench-tools installs it; make bench passes it); without it section 9 says so")
	fs.IntVar(&o.worktrees, "worktrees", 10, "worktrees of -module section 13 edits, each with its own daemon")
	fs.StringVar(&o.md, "md", "", "also write the report as Markdown to this file (make bench: docs/benchmarks.md)")
	fs.StringVar(&o.note, "note", "", "a sentence about the run for the Markdown report, e.g. how loaded the machine was")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.bin == "" {
		return o, errors.New("-bin is required: the lsp-hook binary to measure")
	}
	if o.jsonN < 1 || o.goN < 1 || o.langN < 1 || o.worktrees < 1 {
		return o, errors.New("-json-n, -go-n, -lang-n and -worktrees must be at least 1")
	}
	if o.peer != "" {
		p, err := filepath.Abs(o.peer)
		if err != nil {
			return o, fmt.Errorf("resolving -peer: %w", err)
		}
		o.peer = p
	}
	abs, err := filepath.Abs(o.bin)
	if err != nil {
		return o, fmt.Errorf("resolving -bin: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil || fi.IsDir() {
		return o, fmt.Errorf("-bin %s: not a file (build it first: go build -o bin/lsp-hook ./cmd/lsp-hook)", o.bin)
	}
	o.bin = abs
	return o, nil
}

// run is the whole bench: set up, measure, stop the daemons, print the
// report (also the part measured before an error), clean up.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	opts, err := parseOptions(args, stderr)
	if err != nil {
		return err
	}
	b, err := newBench(ctx, opts, stderr)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := b.close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	rep := &report{machine: b.machine}
	err = measureAll(ctx, b, rep)
	if err == nil && opts.runs(secDiagnose) {
		err = b.diagnoseSection(ctx, &rep.diagnose)
	}
	if err == nil && opts.runs(secMCP) {
		err = b.mcpSection(ctx, &rep.mcp)
	}
	if err == nil && opts.runs(secLoad) {
		rep.load = &loadResult{}
		err = b.loadSection(ctx, rep.load)
	}
	if err == nil && opts.runs(secPrewarm) {
		rep.prewarm = &prewarmResult{}
		err = b.prewarmSection(ctx, rep.prewarm)
	}
	if err == nil {
		err = measureIssue18(ctx, b, rep)
	}
	rep.machine.endLoad = loadAvg()
	rep.cleanup = b.stopDaemons()
	if err != nil {
		rep.failure = err.Error()
	}
	rep.write(stdout)
	if opts.md == "" {
		return err
	}
	if err != nil {
		fmt.Fprintf(stderr, "bench: the run failed; %s not written\n", opts.md)
		return err
	}
	root, werr := os.Getwd()
	if werr == nil {
		werr = rep.writeMarkdownFile(opts.md, mdDoc{repro: reproCommand(root, opts.args), note: opts.note, chart: chartPath(opts.md)})
	}
	if werr == nil {
		werr = rep.writeChartFile(chartPath(opts.md))
	}
	return werr
}

// measureAll runs the selected parts in order, filling rep as it goes so
// that a failure still leaves what was measured before it.
func measureAll(ctx context.Context, b *bench, rep *report) error {
	var demo *workspace
	var err error
	if b.opts.runs(secJSON) || b.opts.runs(secGo) {
		if demo, err = b.demoWorkspace(ctx); err != nil {
			return fmt.Errorf("preparing the demo workspace: %w", err)
		}
	}
	goSpaces := []*workspace{demo}
	if b.opts.runs(secGo) {
		for _, m := range b.opts.largeModules() {
			b.progressf("2. copying %s from the module cache", m.path)
			ws, err := b.largeWorkspace(ctx, m)
			if err != nil {
				return fmt.Errorf("preparing the large workspace %s: %w", m.path, err)
			}
			goSpaces = append(goSpaces, ws)
		}
	}
	if b.opts.runs(secJSON) {
		b.progressf("1. JSON hook round trip on %s (%d + %d runs)", demo.name, b.opts.jsonN, b.opts.jsonN)
		js, err := b.jsonRoundTrip(ctx, demo)
		if err != nil {
			return fmt.Errorf("JSON round trip: %w", err)
		}
		rep.json = &js
	}
	if b.opts.runs(secGo) {
		for _, ws := range goSpaces {
			b.progressf("2. Go edits on %s (1 + %d runs)", ws.name, b.opts.goN)
			g, err := b.goEdits(ctx, ws)
			if len(g.hook.s) > 0 || err == nil { // a partial run is still worth printing
				rep.goRuns = append(rep.goRuns, g)
			}
			if err != nil {
				return fmt.Errorf("Go edits on %s: %w", ws.name, err)
			}
		}
	}
	if b.opts.runs(secLangs) {
		if err := b.langEdits(ctx, rep); err != nil {
			return err
		}
	}
	if b.opts.runs(secMemory) {
		b.progressf("4. memory")
		rep.memory, err = b.memory(ctx)
	}
	return err
}
