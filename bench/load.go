package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// This file is section 7, load (issue 7, "make bench report"): one
// workspace holding the four projects of testdata/langs side by side and
// burstFiles generated files with one error each, so that one daemon runs
// gopls, pyright, typescript-language-server and clangd at once:
//
//  1. the daemon is started by a JSON edit (validators only), then each
//     project's caller is touched once, unedited: the first touch of each
//     server inside a running daemon;
//  2. the memory of the daemon (alone), of each server and of the whole
//     process tree, with the four servers active;
//  3. each generated file is hooked once, one after another, twice: the
//     first pass opens every document in its server, the second is the
//     warm, uncontended baseline;
//  4. burstHooks hook processes are released at once, burstHooks /
//     len(files) per file: their wall times (p50, p99, max), and how many
//     failed, timed out or answered for the wrong file;
//  5. the memory again, the daemon's peak (VmHWM) now including the burst.

// secLoad is 7: four servers in one daemon, and burstHooks hooks at once.
const secLoad section = "load"

// burstHooks is how many hook processes the burst starts at once, and
// burstPerKind how many files of each burstKinds kind they share.
const (
	burstHooks   = 200
	burstPerKind = 10
)

// burstKind is one kind of generated file: where it goes (slash-separated,
// relative to the workspace), and its content for file n, which has one
// error the hook must report in that file.
type burstKind struct {
	name    string
	dir     string
	ext     string
	content func(n int) string
}

// burstKinds are the kinds of issue 7's load test: Go, TypeScript and
// Python (their servers), JSON and YAML (the validators). Names and values
// differ per file, so that the Go files of one package do not clash.
var burstKinds = []burstKind{
	{"Go", "go", ".go", func(n int) string {
		return fmt.Sprintf("package main\n\nvar load%02d int = \"%d\"\n", n, n)
	}},
	{"TypeScript", "ts/src", ".ts", func(n int) string {
		return fmt.Sprintf("export const load%02d: number = \"%d\";\n", n, n)
	}},
	{"Python", "py", ".py", func(n int) string { return fmt.Sprintf("load%02d: int = \"%d\"\n", n, n) }},
	{"JSON", "data", ".json", func(int) string { return badJSON }},
	{"YAML", "data", ".yaml", func(n int) string { return fmt.Sprintf("name: load%02d\nitems: [a, b\n", n) }},
}

// loadResult is section 7.
type loadResult struct {
	ws      *workspace
	firsts  []row         // per server: the first touch of its project's caller in the running daemon
	idle    memRow        // with the four servers active, before the burst
	after   memRow        // after the burst
	seq     row           // each file hooked once, one after another (warm, uncontended)
	burst   samples       // wall time of each hook of the burst, start to exit
	span    time.Duration // the burst's first start to its last exit
	files   int           // files the burst shared
	errs    int           // hooks that failed: not started, killed at childTimeout, exit ≠ 0, answer undecodable
	timeout int           // hooks whose answer said a server (or the daemon) did not answer in time
	wrong   int           // hooks whose answer missed their own file's error or named another file
	notes   []string      // the first problem of each kind
	tally   []string      // per kind of problem, how many hooks of each file kind had it
}

// loadSection measures section 7 into res.
func (b *bench) loadSection(ctx context.Context, res *loadResult) error {
	ws, files, err := b.loadWorkspace(ctx)
	if err != nil {
		return fmt.Errorf("preparing the load workspace: %w", err)
	}
	res.ws, res.files = ws, len(files)
	b.progressf("7a. four servers in one daemon: first touches")
	if err := b.loadFirsts(ctx, res); err != nil {
		return err
	}
	if res.idle, err = b.memOf(ctx, ws); err != nil {
		return err
	}
	if n := len(res.idle.servers); n != len(langSpecs) {
		res.notes = append(res.notes, fmt.Sprintf("! %d servers running after the first touches, want %d", n, len(langSpecs)))
	}
	b.progressf("7c. %d files hooked one after another, twice (the first pass untimed)", len(files))
	res.seq = row{label: fmt.Sprintf("one hook at a time, each of the %d files once", len(files))}
	for pass := range 2 {
		for i, f := range files {
			wall, lint, err := b.hook(ctx, ws, f)
			if err != nil {
				return fmt.Errorf("hooking %s: %w", f, err)
			}
			if pass == 1 {
				res.seq.record(i+1, wall, burstProblem(ws, f, lint))
			}
		}
	}
	b.progressf("7c. %d hooks at once over %d files", burstHooks, len(files))
	b.burst(ctx, res, files)
	res.after, err = b.memOf(ctx, ws)
	return err
}

// loadWorkspace copies the four projects of -langs-dir under one git root
// and writes the generated files; it returns the workspace and the
// generated files (absolute).
func (b *bench) loadWorkspace(ctx context.Context) (*workspace, []string, error) {
	ws := &workspace{name: "testdata/langs/{go,py,ts,c} + generated files", dir: filepath.Join(b.tmp, "load")}
	b.workspaces = append(b.workspaces, ws)
	for _, l := range langSpecs {
		if err := copyTree(filepath.Join(b.opts.langsDir, l.dir), filepath.Join(ws.dir, l.dir), false); err != nil {
			return nil, nil, fmt.Errorf("copying %s: %w", l.dir, err)
		}
	}
	gen := make(map[string]string)
	var files []string
	for n := range burstPerKind {
		for _, k := range burstKinds {
			rel := fmt.Sprintf("%s/load%02d%s", k.dir, n, k.ext)
			gen[rel] = k.content(n)
			files = append(files, filepath.Join(ws.dir, filepath.FromSlash(rel)))
		}
	}
	if err := writeFiles(ws.dir, gen); err != nil {
		return nil, nil, err
	}
	_, err := output(ctx, ws.dir, b.env, "git", "init", "-q")
	return ws, files, err
}

// loadFirsts starts the daemon with a JSON edit, then touches each
// project's caller (clean, unedited) once: each hook waits for its server's
// start and initial load.
func (b *bench) loadFirsts(ctx context.Context, res *loadResult) error {
	ws := res.ws
	if _, _, err := b.hook(ctx, ws, filepath.Join(ws.dir, "data", "load00.json")); err != nil {
		return fmt.Errorf("starting the daemon: %w", err)
	}
	for _, l := range langSpecs {
		path := filepath.Join(ws.dir, l.dir, filepath.FromSlash(l.target))
		wall, lint, err := b.hook(ctx, ws, path)
		if err != nil {
			return fmt.Errorf("first touch of %s: %w", l.server, err)
		}
		r := row{label: l.name + ": " + l.server, firstNote: "server start, daemon running"}
		problem := ""
		if lint != "" {
			problem = fmt.Sprintf("want no answer for the clean %s/%s, got %q", l.dir, l.target, lint)
		}
		r.record(0, wall, problem)
		res.firsts = append(res.firsts, r)
	}
	return nil
}

// burst starts burstHooks hooks at once, hook i for files[i % len(files)],
// and records their wall times and problems into res.
func (b *bench) burst(ctx context.Context, res *loadResult, files []string) {
	type outcome struct {
		wall time.Duration
		lint string
		err  error
	}
	out := make([]outcome, burstHooks)
	release := make(chan struct{})
	var started, done sync.WaitGroup
	for i := range out {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			<-release
			o := &out[i]
			o.wall, o.lint, o.err = b.runHook(ctx, res.ws.dir, files[i%len(files)])
		}()
	}
	started.Wait()
	begin := time.Now()
	close(release)
	done.Wait()
	res.span = time.Since(begin)
	byKind := make(map[string]map[string]int) // problem → burstKind name → hooks
	note := func(problem string, i int, what string) {
		f := files[i%len(files)]
		if byKind[problem] == nil {
			byKind[problem] = make(map[string]int)
			res.notes = append(res.notes, fmt.Sprintf("! %s: first of them: hook %d (%s): %s", problem, i, filepath.Base(f), cut(what, 300)))
		}
		byKind[problem][burstKindOf(f)]++
	}
	for i, o := range out {
		switch {
		case o.err != nil:
			res.errs++
			note("failed", i, o.err.Error())
			continue
		case timedOut(o.lint):
			res.timeout++
			note("timed out", i, o.lint)
		default:
			if p := burstProblem(res.ws, files[i%len(files)], o.lint); p != "" {
				res.wrong++
				note("wrong answer", i, p)
			}
		}
		res.burst = append(res.burst, o.wall)
	}
	for _, problem := range []string{"failed", "timed out", "wrong answer"} {
		if m := byKind[problem]; m != nil {
			var parts []string
			for _, k := range burstKinds {
				if m[k.name] > 0 {
					parts = append(parts, fmt.Sprintf("%s %d", k.name, m[k.name]))
				}
			}
			res.tally = append(res.tally, fmt.Sprintf("%s, hooks by file kind: %s", problem, strings.Join(parts, ", ")))
		}
	}
}

// burstKindOf is the name of the burstKinds kind of a generated file,
// found by its extension.
func burstKindOf(path string) string {
	for _, k := range burstKinds {
		if strings.HasSuffix(path, k.ext) {
			return k.name
		}
	}
	return "?"
}

// timedOut reports whether a lint block says that a server gave no fresh
// answer in the hook's budget, or that the hook fell back to its
// in-process validators (sidecar's unknownNote, hooks' fallback note).
func timedOut(lint string) bool {
	return strings.Contains(lint, "lsp-hook: no fresh diagnostics from") ||
		strings.Contains(lint, "lsp-hook daemon is unavailable")
}

// burstProblem says what is wrong with the lint block a hook gave for an
// Edit of path, a generated file with one error ("" when nothing): it must
// report that file, and only that file (an edit's block shows the edited
// file only; another file there is a result mixed up between requests).
func burstProblem(ws *workspace, path, lint string) string {
	rel, _ := filepath.Rel(ws.dir, path)
	own := `file="` + filepath.ToSlash(rel) + `"`
	if !strings.Contains(lint, own) || !strings.Contains(lint, "ERROR [") {
		return fmt.Sprintf("no error reported in %s: %q", rel, lint)
	}
	if strings.Count(lint, `file="`) != strings.Count(lint, own) {
		return fmt.Sprintf("another file in the answer for %s: %q", rel, lint)
	}
	return ""
}

// writeLoad prints section 7; nothing when it did not run.
func writeLoad(w io.Writer, res *loadResult) {
	if res == nil || res.ws == nil {
		return
	}
	fmt.Fprintf(w, "\n7. Four servers in one daemon, then %d hooks at once: %s\n", burstHooks, res.ws.name)
	fmt.Fprintf(w, "   %d generated files (%d each of %s), one error each; every answer must report its own file only.\n",
		res.files, burstPerKind, burstKindNames())
	fmt.Fprintln(w, "\n7a. First touch of each server with the daemon already running: a hook for its project's caller, clean")
	for _, r := range res.firsts {
		fmt.Fprintf(w, "   %-44s %10s  %s\n", r.label, fmtFirst(r), r.firstNote)
		if r.bad > 0 {
			fmt.Fprintf(w, "   ! %s\n", r.badNote)
		}
	}
	idle, after := res.idle, res.after
	idle.label, after.label = "with 4 servers, before the burst", "after the burst"
	writeMemory(w, "7b. Memory", []memRow{idle, after})
	for _, m := range []struct {
		when string
		r    memRow
	}{{"before the burst", res.idle}, {"after the burst", res.after}} {
		fmt.Fprintf(w, "   %-17s daemon %.1f MiB (peak %.1f) · %d servers %.1f MiB · tree of %d processes %.1f MiB\n", m.when,
			mib(m.r.daemon.rss), mib(m.r.daemon.peak), len(m.r.servers), mib(m.r.serversRSS()), 1+len(m.r.servers)+len(m.r.others), mib(m.r.treeRSS()))
	}
	fmt.Fprintf(w, "\n7c. %d hook processes released at once over the %d files (%d per file); wall time of each, start to exit\n",
		burstHooks, res.files, burstHooks/max(res.files, 1))
	fmt.Fprintf(w, "   %-44s %4s %10s %10s %10s %10s\n", "", "n", "p50", "p90", "p99", "max")
	for _, r := range []struct {
		label string
		s     samples
	}{{res.seq.label, res.seq.s}, {fmt.Sprintf("%d at once (answered hooks)", burstHooks), res.burst}} {
		fmt.Fprintf(w, "   %-44s %4d %10s %10s %10s %10s\n", r.label, len(r.s),
			fmtDur(r.s.median()), fmtDur(r.s.p90()), fmtDur(r.s.p99()), fmtDur(r.s.maximum()))
	}
	fmt.Fprintf(w, "   → p99 ÷ p50 at once: %s   goal ≤ %g×: %s;  p50 at once ÷ one at a time: %s\n",
		fmtRatio(pRatio(res.burst.p99(), res.burst.median())), goalBurstRatio, verdict(res.burstMet()),
		fmtRatio(ratio(res.burst, res.seq.s)))
	fmt.Fprintf(w, "   → failed %d, timed out %d, wrong answer %d of %d; first start to last exit %s\n",
		res.errs, res.timeout, res.wrong, burstHooks, fmtDur(res.span))
	if res.seq.bad > 0 {
		fmt.Fprintf(w, "   ! one at a time: %d of %d answers wrong; %s\n", res.seq.bad, len(res.seq.s), res.seq.badNote)
	}
	for _, n := range res.notes {
		fmt.Fprintf(w, "   %s\n", n)
	}
	for _, n := range res.tally {
		fmt.Fprintf(w, "   ! %s\n", n)
	}
}

// burstMet reports whether the burst's p99 is within goalBurstRatio of
// its p50, with every hook answered.
func (res *loadResult) burstMet() bool {
	return len(res.burst) == burstHooks && float64(res.burst.p99()) <= goalBurstRatio*float64(res.burst.median())
}

// burstKindNames is "Go, TypeScript, Python, JSON, YAML".
func burstKindNames() string {
	names := make([]string, len(burstKinds))
	for i, k := range burstKinds {
		names[i] = k.name
	}
	return strings.Join(names, ", ")
}
