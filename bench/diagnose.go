package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// Part 5, diagnose: `lsp-hook diagnose --no-daemon` over a whole real
// project, run once, against the compiler or linter a CI job would run
// over it otherwise, with wall time and memory. The projects:
//
//   - Go: the source of the gopls on PATH (diagGoModule at that binary's
//     own version, from the module cache or the proxy), tests kept and
//     testdata/ removed (go ignores it), with a printf mistake planted in
//     diagPlanted packages so every checker has something known to find;
//   - TypeScript: the src/ of diagTSPackage as published on npm, under a
//     tsconfig stricter than upstream's, so that tsc has real errors to
//     report and diagnose's answer can be compared with tsc's line by line.
const (
	diagGoModule     = "golang.org/x/tools/gopls"
	diagTSPackage    = "rxjs@7.8.2"
	diagPlanted      = 4
	diagPlantedFile  = "lsphook_bench_planted.go"
	diagPlantedLine  = 8 // the line of the Sprintf in diagPlantedSrc
	diagChildTimeout = 10 * time.Minute
	treeSampleEvery  = 100 * time.Millisecond
)

// diagPlantedSrc is the planted file, with the package name to fill in:
// go vet's printf check and gopls's printf analyzer both report line 8.
const diagPlantedSrc = `// This file was planted by lsp-hook's bench: a printf mistake that go vet
// and gopls must both report.

package %s

import "fmt"

func LSPHookBenchPlanted() string { return fmt.Sprintf("%%d", "planted") }
`

// diagTSConfig is the TypeScript project's tsconfig.json: upstream's
// settings (strict, ES2015, esnext lib and dom) plus noImplicitOverride and
// noUncheckedIndexedAccess, which rxjs's source does not satisfy.
const diagTSConfig = `{
  "compilerOptions": {
    "strict": true,
    "noImplicitOverride": true,
    "noUncheckedIndexedAccess": true,
    "target": "es2015",
    "module": "esnext",
    "moduleResolution": "node",
    "lib": ["esnext", "dom"],
    "types": [],
    "noEmit": true,
    "paths": {"rxjs": ["./src/index.ts"], "rxjs/*": ["./src/*"]}
  },
  "include": ["src/**/*.ts"]
}
`

// diagnoseArgs are the flags of every measured diagnose: servers in the
// process, JSON to count from, exit by findings alone (incompleteness is
// read from the notes), warnings shown (go vet's findings are warnings).
var diagnoseArgs = []string{"diagnose", "--no-daemon", "--format", "json", "--allow-incomplete", "--severity", "warning"}

// diagnoseResult is part 5: one block per project.
type diagnoseResult struct{ projects []diagProject }

// diagProject is one project's measurements: the rows in the order run,
// ratios taken to rows[base].
type diagProject struct {
	key   string // "go", "ts": names its outputs in diag-out/
	title string
	about []string // how the project and the caches were prepared
	rows  []diagRow
	base  int
	notes []string // what each side found; "!" lines for problems
}

// diagRow is one measured command.
type diagRow struct {
	label string
	files int // files the command looked at
	r     procResult
	found string // its diagnostics, in a few words
}

// diagnoseSection measures part 5 into res, the Go project first.
func (b *bench) diagnoseSection(ctx context.Context, res *diagnoseResult) error {
	for _, measure := range []func(context.Context) (diagProject, error){b.diagnoseGo, b.diagnoseTS} {
		p, err := measure(ctx)
		if len(p.rows) > 0 || err == nil {
			res.projects = append(res.projects, p)
		}
		if err != nil {
			return fmt.Errorf("diagnose: %s: %w", p.title, err)
		}
	}
	return nil
}

// measureRow measures argv in dir with env as the next row of p, keeps its
// output in the temporary tree (diag-out/KEY-N.stdout and .stderr, for
// -keep), and checks that it exited with one of codes.
func (b *bench) measureRow(ctx context.Context, p *diagProject, dir string, env []string, label string, files int, codes []int, argv ...string) (*diagRow, error) {
	r, err := measureProc(ctx, dir, env, argv...)
	if err != nil {
		return nil, err
	}
	p.rows = append(p.rows, diagRow{label: label, files: files, r: r})
	row := &p.rows[len(p.rows)-1]
	name := fmt.Sprintf("%s-%d", p.key, len(p.rows))
	if err := writeFiles(filepath.Join(b.tmp, "diag-out"), map[string]string{
		name + ".stdout": string(r.stdout), name + ".stderr": string(r.stderr)}); err != nil {
		return row, err
	}
	if !slices.Contains(codes, r.code) {
		return row, fmt.Errorf("%s exited %d: %s", label, r.code, lastLines(r.combined(), 5))
	}
	for _, l := range r.leftover {
		p.notes = append(p.notes, fmt.Sprintf("! %s left %s running after it exited; killed it", label, l))
	}
	return row, nil
}

// diagnoseRow runs lsp-hook diagnose with extra flags as the next row of
// p, reads its JSON answer and notes what it said beyond the counts.
func (b *bench) diagnoseRow(ctx context.Context, p *diagProject, dir string, env []string, label string, extra ...string) (diagnoseOut, error) {
	argv := append(append([]string{b.opts.bin}, diagnoseArgs...), extra...)
	row, err := b.measureRow(ctx, p, dir, env, label, 0, []int{0, 1}, argv...)
	if err != nil {
		return diagnoseOut{}, err
	}
	var out diagnoseOut
	if err := json.Unmarshal(row.r.stdout, &out); err != nil {
		return out, fmt.Errorf("decoding %s's JSON: %w", label, err)
	}
	if m := filesChecked.FindSubmatch(row.r.stderr); m != nil {
		row.files, _ = strconv.Atoi(string(m[1]))
	}
	row.found = fmt.Sprintf("%d errors, %d warnings", out.Errors, out.Warnings)
	p.notes = append(p.notes, fmt.Sprintf("%s: by source: %s", label, out.bySource()))
	if tagged, dupes := out.viewTagged(); tagged > 0 {
		p.notes = append(p.notes, fmt.Sprintf("! %s: %d findings carry a gopls view tag such as \" [windows]\"; %d are a duplicate but for it", label, tagged, dupes))
	}
	for _, n := range out.Notes {
		mark := ""
		if strings.HasPrefix(n, "incomplete") {
			mark = "! "
		}
		p.notes = append(p.notes, fmt.Sprintf("%s%s: note: %s", mark, label, n))
	}
	return out, nil
}

// diagnoseOut is the part of diagnose's JSON report (diag.WriteReport)
// the bench reads.
type diagnoseOut struct {
	Files []struct {
		Rel         string         `json:"rel"`
		Diagnostics []diagnoseDiag `json:"diagnostics"`
	} `json:"files"`
	Errors   int      `json:"errors"`
	Warnings int      `json:"warnings"`
	Notes    []string `json:"notes"`
}

// diagnoseDiag is one diagnostic of diagnoseOut (diag.Diagnostic's JSON).
type diagnoseDiag struct {
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Source   string `json:"source"`
	Message  string `json:"message"`
}

// bySource counts the diagnostics by their source: "gopls 9, shellcheck 12".
func (o diagnoseOut) bySource() string {
	n := make(map[string]int)
	for _, f := range o.Files {
		for _, d := range f.Diagnostics {
			n[orDefault(d.Source, "?")]++
		}
	}
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(n)) {
		parts = append(parts, fmt.Sprintf("%s %d", s, n[s]))
	}
	return orDefault(strings.Join(parts, ", "), "nothing")
}

// viewTagged counts the diagnostics whose message ends in gopls's view
// tag (" [windows]": found by a view for another GOOS or GOARCH and not, or
// not yet, by the default one), and those that are another diagnostic of
// the same place but for that tag (diag.SortDedupe compares messages, so
// it keeps both).
func (o diagnoseOut) viewTagged() (tagged, dupes int) {
	for _, f := range o.Files {
		seen := make(map[string]int)
		for _, d := range f.Diagnostics {
			if viewTag.MatchString(d.Message) {
				tagged++
			}
			seen[fmt.Sprintf("%d:%d:%s", d.Line, d.Column, viewTag.ReplaceAllString(d.Message, ""))]++
		}
		for _, n := range seen {
			dupes += n - 1
		}
	}
	return tagged, dupes
}

// distinctGo counts the distinct positioned findings in go tool output,
// gopls's view tags removed (gopls check prints one line per view).
func distinctGo(out string) int {
	seen := make(map[string]bool)
	for _, line := range goFinding.FindAllString(out, -1) {
		seen[viewTag.ReplaceAllString(strings.TrimSpace(line), "")] = true
	}
	return len(seen)
}

// has reports whether o has a diagnostic of file rel (slash-separated) at
// line.
func (o diagnoseOut) has(rel string, line int) bool {
	for _, f := range o.Files {
		if f.Rel == rel && slices.ContainsFunc(f.Diagnostics, func(d diagnoseDiag) bool { return d.Line == line }) {
			return true
		}
	}
	return false
}

var (
	tscError     = regexp.MustCompile(`(?m)^(\S+)\((\d+),\d+\): error (TS\d+)`) // tsc --pretty false
	filesChecked = regexp.MustCompile(`lsp-hook: (\d+) files checked`)
	goFinding    = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+.*$`)      // go vet, go build, gopls check
	viewTag      = regexp.MustCompile(` \[[a-z0-9]+(,[a-z0-9]+)?\]$`) // gopls's " [darwin]", " [windows,386]"
)

// writeDiagnose prints part 5.
func writeDiagnose(w io.Writer, res diagnoseResult) {
	if len(res.projects) == 0 {
		return
	}
	fmt.Fprintln(w, "\n5. lsp-hook diagnose over a whole project vs the tool a CI job would run over it; each command once,")
	fmt.Fprintln(w, "   in the order shown. diagnose runs with "+strings.Join(diagnoseArgs[1:], " ")+" (its servers start and stop inside).")
	fmt.Fprintln(w, "   wall: start to exit. peak RSS: ru_maxrss from wait4, the largest SINGLE process of the tree the command")
	fmt.Fprintln(w, "   reaped (for diagnose the max of lsp-hook, gopls, each go vet…, not their sum). tree peak: the largest")
	fmt.Fprintln(w, "   sum of the RSS of the command and its live descendants, sampled every 100 ms (n: processes then).")
	for i, p := range res.projects {
		writeDiagProject(w, fmt.Sprintf("5%c", 'a'+i), p)
	}
}

// writeDiagProject prints one project: the ratios to its baseline first,
// then the table and the notes.
func writeDiagProject(w io.Writer, n string, p diagProject) {
	fmt.Fprintf(w, "\n%s. %s\n", n, p.title)
	for _, a := range p.about {
		fmt.Fprintf(w, "    %s\n", a)
	}
	if p.base >= len(p.rows) {
		fmt.Fprintln(w, "   (the baseline did not run)")
		return
	}
	base := p.rows[p.base]
	baseName, _, _ := strings.Cut(base.label, "  (")
	for i, r := range p.rows {
		if i != p.base && strings.HasPrefix(r.label, "lsp-hook") {
			fmt.Fprintf(w, "   → %s: %s the wall time, %s the tree peak of %s\n", r.label,
				fmtRatio(pRatio(r.r.wall, base.r.wall)), fmtRatio(pRatio(r.r.treePeak, base.r.treePeak)), baseName)
		}
	}
	fmt.Fprintf(w, "   %-50s %6s %8s %8s %9s %13s  %s\n", "command", "files", "wall s", "÷ base", "peak MiB", "tree peak MiB", "found")
	for _, r := range p.rows {
		fmt.Fprintf(w, "   %-50s %6d %8.1f %8s %9.0f %8.0f (n %2d)  %s\n", r.label, r.files, r.r.wall.Seconds(),
			fmtRatio(pRatio(r.r.wall, base.r.wall)), mib(r.r.maxRSS), mib(r.r.treePeak), r.r.treeN, r.found)
	}
	for _, note := range p.notes {
		fmt.Fprintf(w, "   %s\n", note)
	}
}

// mib is KiB in MiB.
func mib(kib int64) float64 { return float64(kib) / 1024 }

// procResult is one measured process: its wall time, output and exit code;
// ru_maxrss from wait4 (KiB: the largest single process among it and the
// descendants it reaped); the largest sum of VmRSS (KiB) over it and its
// live descendants at one sample, with how many processes that was; and
// the descendants still running after it exited (killed).
type procResult struct {
	execResult
	maxRSS   int64
	treePeak int64
	treeN    int
	leftover []string
}

// measureProc runs argv in dir with env as a proc.Child (its own process
// group, killed whole on timeout or cancel), sampling its process tree's memory until it
// exits. A non-zero exit is reported in code, not as an error.
func measureProc(ctx context.Context, dir string, env []string, argv ...string) (procResult, error) {
	ctx, cancel := context.WithTimeout(ctx, diagChildTimeout)
	defer cancel()
	child := proc.Command(ctx, argv[0], argv[1:]...)
	cmd := child.Cmd
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second // a descendant holding stdout open must not hang the bench
	begin := time.Now()
	if err := child.Start(); err != nil {
		return procResult{}, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	stop, sampled := make(chan struct{}), make(chan treeSample, 1)
	go func() { sampled <- sampleTree(child.Pid(), stop) }()
	err := child.Wait()
	r := procResult{execResult: execResult{wall: time.Since(begin), stdout: stdout.Bytes(), stderr: stderr.Bytes()}}
	close(stop)
	t := <-sampled
	r.treePeak, r.treeN = t.peak, t.n
	r.maxRSS = maxRSSKiB(cmd.ProcessState)
	r.leftover = reapLeftovers(t.seen, 2*time.Second)
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return r, fmt.Errorf("running %s: %w", strings.Join(argv, " "), ctx.Err())
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		return r, fmt.Errorf("running %s: %w", argv[0], err)
	}
	return r, nil
}

// treeSample is what sampleTree saw: the peak sum of VmRSS (KiB), the
// processes at that peak, and every descendant by pid.
type treeSample struct {
	peak int64
	n    int
	seen map[int]seenProc
}

// seenProc is one descendant: its start time (startTime, ms since the
// epoch), which tells it from a later process given the same pid, and the last command line sampled (a forked shell child first
// shows the shell's command line, then the program it execs).
type seenProc struct {
	start int64
	cmd   string
}

// sampleTree sums the VmRSS of root and its live descendants every
// treeSampleEvery until stop is closed. A process reparented away from the
// tree (its parent died first) is no longer counted.
func sampleTree(root int, stop <-chan struct{}) treeSample {
	t := treeSample{seen: make(map[int]seenProc)}
	tick := time.NewTicker(treeSampleEvery)
	defer tick.Stop()
	for {
		tree := descendants(root)
		var sum int64
		n := 0
		if m, ok := readProcMem(root); ok {
			sum, n = m.rss, 1
		}
		for pid, cmd := range tree {
			if start, ok := startTime(pid); ok {
				t.seen[pid] = seenProc{start: start, cmd: cmd}
			}
			if m, ok := readProcMem(pid); ok {
				sum, n = sum+m.rss, n+1
			}
		}
		if sum > t.peak {
			t.peak, t.n = sum, n
		}
		select {
		case <-stop:
			return t
		case <-tick.C:
		}
	}
}

// reapLeftovers waits up to grace for the descendants a measured command
// had to exit, then kills, by pid, those still running (the same pid with
// the same start time), and names them by their current command line.
func reapLeftovers(seen map[int]seenProc, grace time.Duration) []string {
	running := func() []int {
		var pids []int
		for pid, p := range seen {
			if start, ok := startTime(pid); ok && start == p.start && alive(pid) {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	deadline := time.Now().Add(grace)
	for len(running()) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond) // polling: there is no exit event for a non-child
	}
	var out []string
	for _, pid := range running() {
		out = append(out, fmt.Sprintf("pid %d (%s)", pid, cmdline(pid)))
		kill(pid)
	}
	return out
}

// lastLines is the last n lines of s, joined by " | ".
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], " | ")
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// withEnv is env with kv ("KEY=value") set; os/exec keeps the last value
// of a key.
func withEnv(env []string, kv ...string) []string {
	return append(slices.Clip(env), kv...)
}

// filesNamed returns the regular files under dir whose name satisfies
// keep, in lexical order.
func filesNamed(dir string, keep func(name string) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && keep(d.Name()) {
			out = append(out, path)
		}
		return err
	})
	return out, err
}

// countFiles counts the regular files under dir whose name satisfies keep.
func countFiles(dir string, keep func(name string) bool) (int, error) {
	files, err := filesNamed(dir, keep)
	return len(files), err
}

// untar extracts from the gzipped tar r the regular files under prefix
// (slash-separated, as in the archive) whose name satisfies keep, into dst
// without the prefix.
func untar(r io.Reader, prefix, dst string, keep func(name string) bool) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		rel, ok := strings.CutPrefix(h.Name, prefix)
		if !ok || h.Typeflag != tar.TypeReg || !keep(filepath.Base(rel)) {
			continue
		}
		if rel = filepath.Clean(filepath.FromSlash(rel)); !filepath.IsLocal(rel) {
			return fmt.Errorf("%s: a path outside the archive's %s", h.Name, prefix)
		}
		path := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return fmt.Errorf("reading %s: %w", h.Name, err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
}

// diagnoseGo measures the Go project: go build and go vet (twice: the
// second run finds vet's results cached), gopls check of every .go file,
// and diagnose with its default --jobs 2, with and without its go vet
// linter. (--jobs 1 took 126 s and 175 s in two runs where --jobs 2 took
// 131 s and 138 s: not worth two more minutes per run.)
func (b *bench) diagnoseGo(ctx context.Context) (diagProject, error) {
	p := diagProject{key: "go", title: "Go: " + diagGoModule, base: 1}
	dir, env, err := b.diagGoWorkspace(ctx, &p)
	if err != nil {
		return p, err
	}
	all, err := filesNamed(dir, func(n string) bool { return strings.HasSuffix(n, ".go") })
	if err != nil {
		return p, err
	}
	goFiles, planted := len(all), plantedFiles(dir, all)
	goTool := func(label string, codes []int, env []string, argv ...string) error {
		b.progressf("5a. %s", label)
		row, err := b.measureRow(ctx, &p, dir, env, label, goFiles, codes, argv...)
		if err != nil {
			return err
		}
		out := row.r.combined()
		lines := len(goFinding.FindAllString(out, -1))
		row.found = fmt.Sprintf("%d findings%s", lines, plantedHits(out, planted))
		if n := distinctGo(out); n != lines {
			row.found += fmt.Sprintf("; %d without gopls's view tags", n)
		}
		return nil
	}
	gopls := func(name string) []string { // a fresh, empty gopls file cache for each gopls run
		return withEnv(env, "GOPLSCACHE="+filepath.Join(b.tmp, "goplscache-"+name))
	}
	for _, c := range []struct {
		label string
		codes []int
		env   []string
		argv  []string
	}{
		{"go build ./...  (build cache warm)", []int{0}, env, []string{"go", "build", "./..."}},
		{"go vet ./...  (baseline; vet results not cached)", []int{0, 1}, env, []string{"go", "vet", "./..."}},
		{"go vet ./...  (again: vet results cached)", []int{0, 1}, env, []string{"go", "vet", "./..."}},
		{"gopls check FILE…  (every .go file, one gopls)", []int{0, 1}, gopls("check"), append([]string{"gopls", "check"}, all...)},
	} {
		if err := goTool(c.label, c.codes, c.env, c.argv...); err != nil {
			return p, err
		}
	}
	noVet := filepath.Join(b.tmp, "config-novet")
	if err := writeFiles(noVet, map[string]string{"lsp-hook/config.yaml": "linters:\n  go-vet: false\n"}); err != nil {
		return p, err
	}
	for _, c := range []struct {
		label string
		env   []string
		jobs  string
	}{
		{"lsp-hook diagnose --jobs 2  (the default)", gopls("j2"), "2"},
		{"lsp-hook diagnose --jobs 2, go-vet linter off", withEnv(gopls("novet"), "XDG_CONFIG_HOME="+noVet), "2"},
	} {
		b.progressf("5a. %s", c.label)
		out, err := b.diagnoseRow(ctx, &p, dir, c.env, c.label, "--jobs", c.jobs)
		if err != nil {
			return p, err
		}
		row := &p.rows[len(p.rows)-1]
		hits := 0
		for _, f := range planted {
			if out.has(f, diagPlantedLine) {
				hits++
			}
		}
		row.found += fmt.Sprintf("; planted %d/%d", hits, len(planted))
	}
	return p, nil
}

// diagGoWorkspace copies diagGoModule at the version of the gopls on PATH
// into the temporary tree without testdata/, downloads what its tests
// need, makes it a git repository, plants the printf mistakes, and warms
// the build cache: go build ./... and the export data of every package and
// test variant (go list -export), untimed, so that go vet's first run
// finds everything compiled and only its analysis to do. It returns the
// directory and the environment to run Go commands with.
func (b *bench) diagGoWorkspace(ctx context.Context, p *diagProject) (string, []string, error) {
	online := b.onlineEnv()
	env := withEnv(b.env, "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -buildvcs=false"))
	mod, err := goplsModule(ctx, env)
	if err != nil {
		return "", nil, err
	}
	p.title = "Go: " + mod + "  (the source of the gopls on PATH)"
	b.progressf("5a. Go: copying %s, downloading what its tests import, warming the build cache", mod)
	src, err := downloadModule(ctx, online, mod)
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Join(b.tmp, "diag-go")
	if err := copyTree(src, dir, false); err != nil {
		return "", nil, err
	}
	if err := removeDirsNamed(dir, "testdata"); err != nil {
		return "", nil, err
	}
	for _, argv := range [][]string{{"go", "list", "-e", "-test", "-deps", "./..."}, {"git", "init", "-q"}} {
		if _, err := output(ctx, dir, online, argv[0], argv[1:]...); err != nil {
			return "", nil, err
		}
	}
	if err := p.plant(ctx, dir, env); err != nil {
		return "", nil, err
	}
	warm, err := warmGoCache(ctx, dir, env)
	if err != nil {
		return "", nil, err
	}
	goFiles, _ := countFiles(dir, func(n string) bool { return strings.HasSuffix(n, ".go") })
	tests, _ := countFiles(dir, func(n string) bool { return strings.HasSuffix(n, "_test.go") })
	p.about = append(p.about,
		fmt.Sprintf("%d .go files (%d of them tests), testdata/ removed; a printf mistake planted in %d packages (%s)", goFiles, tests, diagPlanted, diagPlantedFile),
		"untimed first: "+strings.Join(warm, ", ")+": every package and test variant compiled,",
		"so go build is a warm no-op and go vet's first run has only analysis to do (for this copy's packages: its",
		"directory is new each run; the dependencies' vet facts may be cached from earlier runs). Its second run finds",
		"all cached, and so do diagnose's `go vet DIR…` runs (one per chunk of 25 files), which come after it. Each gopls (check,",
		"diagnose) starts with an empty file cache (GOPLSCACHE). GOPROXY=off, GOFLAGS=-buildvcs=false.")
	return dir, env, nil
}

// goplsModule is diagGoModule@version of the gopls on PATH, read from
// its build information.
func goplsModule(ctx context.Context, env []string) (string, error) {
	bin, err := exec.LookPath("gopls")
	if err != nil {
		return "", err
	}
	info, err := output(ctx, "", env, "go", "version", "-m", bin)
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(info) {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "mod" && f[1] == diagGoModule && strings.HasPrefix(f[2], "v") {
			return diagGoModule + "@" + f[2], nil
		}
	}
	return "", fmt.Errorf("%s was not built from a released %s (go version -m)", bin, diagGoModule)
}

// downloadModule is the directory of mod (path@version) in the module
// cache, downloaded with env's GOPROXY when it is not there yet.
func downloadModule(ctx context.Context, env []string, mod string) (string, error) {
	js, err := output(ctx, "", env, "go", "mod", "download", "-json", mod)
	if err != nil {
		return "", err
	}
	var dl struct{ Dir, Error string }
	if err := json.Unmarshal([]byte(js), &dl); err != nil || dl.Dir == "" {
		return "", fmt.Errorf("go mod download %s: %v %s", mod, err, dl.Error)
	}
	return dl.Dir, nil
}

// warmGoCache compiles every package and test variant of the module in
// dir, untimed but timed for the report: go build ./..., then go list
// -export (export data, which go vet reads, without linking tests).
func warmGoCache(ctx context.Context, dir string, env []string) ([]string, error) {
	var warm []string
	for _, argv := range [][]string{{"go", "build", "./..."}, {"go", "list", "-e", "-test", "-export", "-deps", "./..."}} {
		r, err := measureProc(ctx, dir, env, argv...)
		if err == nil && r.code != 0 {
			err = fmt.Errorf("%s exited %d: %s", strings.Join(argv, " "), r.code, lastLines(r.combined(), 5))
		}
		if err != nil {
			return nil, fmt.Errorf("warming the build cache: %w", err)
		}
		warm = append(warm, fmt.Sprintf("%s %.0f s", strings.Join(argv, " "), r.wall.Seconds()))
	}
	return warm, nil
}

// plant writes diagPlantedFile into diagPlanted packages of the module in
// dir, spread evenly over its non-main packages in path order.
func (p *diagProject) plant(ctx context.Context, dir string, env []string) error {
	list, err := output(ctx, dir, env, "go", "list", "-e", "-f", "{{.Name}}\t{{.Dir}}", "./...")
	if err != nil {
		return err
	}
	var pkgs [][2]string // name, dir
	for line := range strings.Lines(list) {
		name, pdir, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if ok && name != "main" && name != "" {
			pkgs = append(pkgs, [2]string{name, pdir})
		}
	}
	if len(pkgs) < diagPlanted {
		return fmt.Errorf("want %d non-main packages to plant mistakes in, found %d", diagPlanted, len(pkgs))
	}
	slices.SortFunc(pkgs, func(a, b [2]string) int { return strings.Compare(a[1], b[1]) })
	for i := range diagPlanted {
		pkg := pkgs[(2*i+1)*len(pkgs)/(2*diagPlanted)]
		src := fmt.Sprintf(diagPlantedSrc, pkg[0])
		if err := os.WriteFile(filepath.Join(pkg[1], diagPlantedFile), []byte(src), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// plantedFiles returns the planted files among paths (under dir),
// slash-separated and relative to dir.
func plantedFiles(dir string, paths []string) []string {
	var out []string
	for _, path := range paths {
		if rel, err := filepath.Rel(dir, path); err == nil && filepath.Base(path) == diagPlantedFile {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	return out
}

// plantedHits is "; planted k/n": how many of the planted files out
// reports at their planted line ("" when none were planted).
func plantedHits(out string, planted []string) string {
	if len(planted) == 0 {
		return ""
	}
	hits := 0
	for _, f := range planted {
		if strings.Contains(out, fmt.Sprintf("%s:%d:", f, diagPlantedLine)) {
			hits++
		}
	}
	return fmt.Sprintf("; planted %d/%d", hits, len(planted))
}

// removeDirsNamed removes every directory called name under root.
func removeDirsNamed(root, name string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || d.Name() != name {
			return err
		}
		if err := os.RemoveAll(path); err != nil {
			return err
		}
		return filepath.SkipDir
	})
}

// diagnoseTS measures the TypeScript project: tsc --noEmit -p . (run once
// untimed first), and diagnose with --jobs 2 and --jobs 1, whose errors are
// compared with tsc's by file, line and code.
func (b *bench) diagnoseTS(ctx context.Context) (diagProject, error) {
	p := diagProject{key: "ts", title: "TypeScript: src/ of " + diagTSPackage + " from npm", base: 0}
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		return p, errors.New("tsc is not on PATH (make tools; PATH=$PWD/.tools/npm/node_modules/.bin:$PATH)")
	}
	dir := filepath.Join(b.tmp, "diag-ts")
	if err := b.diagTSWorkspace(ctx, dir); err != nil {
		return p, err
	}
	tsFiles, err := countFiles(dir, func(n string) bool { return strings.HasSuffix(n, ".ts") })
	if err != nil {
		return p, err
	}
	tscArgv := []string{tsc, "--noEmit", "--pretty", "false", "-p", "."}
	if _, err := measureProc(ctx, dir, b.env, tscArgv...); err != nil { // untimed: the page cache, node's code cache
		return p, err
	}
	p.about = []string{
		fmt.Sprintf("%d .ts files and a tsconfig.json (strict, plus noImplicitOverride and noUncheckedIndexedAccess,", tsFiles),
		"which rxjs does not satisfy); tsc ran once untimed first."}
	b.progressf("5b. tsc --noEmit -p .")
	row, err := b.measureRow(ctx, &p, dir, b.env, "tsc --noEmit -p .  (baseline)", tsFiles, []int{0, 1, 2}, tscArgv...)
	if err != nil {
		return p, err
	}
	want := make(map[string]bool) // "rel\x00line\x00code"
	for _, m := range tscError.FindAllStringSubmatch(string(row.r.stdout), -1) {
		want[m[1]+"\x00"+m[2]+"\x00"+strings.ToLower(m[3])] = true
	}
	row.found = fmt.Sprintf("%d errors", len(tscError.FindAllString(string(row.r.stdout), -1)))
	for _, jobs := range []string{"2", "1"} {
		label := "lsp-hook diagnose --jobs " + jobs
		b.progressf("5b. %s", label)
		out, err := b.diagnoseRow(ctx, &p, dir, b.env, label, "--jobs", jobs)
		if err != nil {
			return p, err
		}
		got := make(map[string]bool)
		for _, f := range out.Files {
			for _, d := range f.Diagnostics {
				if d.Severity == "error" {
					got[f.Rel+"\x00"+strconv.Itoa(d.Line)+"\x00"+strings.ToLower(d.Code)] = true
				}
			}
		}
		same := 0
		for k := range want {
			if got[k] {
				same++
			}
		}
		p.rows[len(p.rows)-1].found += fmt.Sprintf("; %d/%d of tsc's (file, line, code), %d not tsc's", same, len(want), len(got)-same)
	}
	return p, nil
}

// diagTSWorkspace fetches diagTSPackage with npm pack into dir's parent,
// extracts its src/*.ts into dir, writes diagTSConfig, and makes dir a
// git repository.
func (b *bench) diagTSWorkspace(ctx context.Context, dir string) error {
	b.progressf("5b. TypeScript: npm pack %s", diagTSPackage)
	packDir := filepath.Join(b.tmp, "npm-pack")
	if err := os.MkdirAll(packDir, 0o755); err != nil {
		return err
	}
	js, err := output(ctx, packDir, os.Environ(), "npm", "pack", "--json", diagTSPackage)
	if err != nil {
		return err
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal([]byte(js), &packed); err != nil || len(packed) != 1 {
		return fmt.Errorf("reading npm pack --json: %v: %q", err, js)
	}
	f, err := os.Open(filepath.Join(packDir, packed[0].Filename))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := untar(f, "package/src/", filepath.Join(dir, "src"), func(n string) bool { return strings.HasSuffix(n, ".ts") }); err != nil {
		return fmt.Errorf("extracting %s: %w", packed[0].Filename, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(diagTSConfig), 0o644); err != nil {
		return err
	}
	_, err = output(ctx, dir, b.env, "git", "init", "-q")
	return err
}
