package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/lsp"
)

// ms is n milliseconds.
func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }

// same is n samples of d.
func same(n int, d time.Duration) samples {
	s := make(samples, n)
	for i := range s {
		s[i] = d
	}
	return s
}

// verdictOf is the verdict of the first row whose metric starts with
// prefix, and whether there was one.
func verdictOf(rows []goalRow, prefix string) (verdictKind, bool) {
	for _, g := range rows {
		if strings.HasPrefix(g.metric, prefix) {
			return g.verdict, true
		}
	}
	return 0, false
}

// TestSummaryVerdicts builds reports from made-up samples and checks each
// goal row's verdict, and that the figures beside a goal have none: the
// figures are synthetic, nothing here is timed.
func TestSummaryVerdicts(t *testing.T) {
	large := &workspace{name: "large", lines: 12_000, graph: importGraph{packages: 1}}
	multi := &workspace{name: "multi", lines: 116_000, pkg: "internal/settings", graph: importGraph{packages: 100, importers: 19, imports: 33}}
	small := &workspace{name: "demo", lines: 200, graph: importGraph{packages: 3, importers: 1}}
	goRun := func(ws *workspace, hook, build time.Duration) goResult {
		return goResult{ws: ws, hook: row{s: same(10, hook), errS: same(5, hook), fixS: same(5, hook)},
			build: row{errS: same(5, build), fixS: same(5, build)}, vet: row{s: same(10, build/2)}}
	}
	// lang is a language whose runs all took hook wall time, server_ms
	// server, and process (a) of the daemon's processing, with the settle
	// window and the hook side making up the rest.
	lang := func(hook, server, process time.Duration) langResult {
		l := langResult{spec: langSpecs[0], hook: row{s: same(5, hook)}, server: row{s: same(5, server)},
			overhead: row{s: same(5, hook-server)}, breakdown: newBreakdown()}
		l.process.s, l.settle.s = same(5, process), same(5, lsp.EditSettle)
		l.client.s = same(5, hook-server-process-lsp.EditSettle)
		return l
	}
	burst := func(p50, p99 time.Duration) samples { // p99 by nearest rank is the 198th of 200
		return append(same(burstHooks-3, p50), p99, p99, p99)
	}
	mem := func(pid int, rssKiB int64) memRow {
		return memRow{daemon: procMem{pid: pid, rss: rssKiB, peak: rssKiB}}
	}
	tests := []struct {
		name string
		rep  report
		want map[string]verdictKind // metric prefix → verdict
	}{
		{
			name: "nothing ran",
			want: map[string]verdictKind{
				"hook round trip": notMeasured, "warm Go edit (type error)": notMeasured, "warm Go edit (fix)": notMeasured,
				"daemon processing": notMeasured, "daemon RSS alone": notMeasured, "daemon peak RSS": notMeasured,
				"200 hooks at once: p99": notMeasured, "200 hooks at once: failed": notMeasured,
			},
		},
		{
			name: "goals met",
			rep: report{
				json:   &jsonResult{hook: row{s: same(5, ms(20))}, version: row{s: same(5, ms(8))}},
				goRuns: []goResult{goRun(small, ms(100), ms(150)), goRun(large, ms(100), ms(1500)), goRun(multi, ms(300), ms(6000))},
				langs:  []langResult{lang(ms(40), ms(10), ms(3))},
				load: &loadResult{idle: mem(1, 20_000), after: mem(1, 25_000), burst: burst(ms(1000), ms(2500)),
					seq: row{s: same(50, ms(50))}},
			},
			want: map[string]verdictKind{
				"hook round trip": goalMet,
				"warm Go edit (type error), large (12k lines, 1 package)": goalMet, "warm Go edit (fix), large": goalMet,
				"warm Go edit (all edits), large (12k lines, 1 package): `go vet .`": noGoal,
				"warm Go edit (type error), multi (116k lines, 100 packages)":        goalMet, "warm Go edit (fix), multi": goalMet,
				"warm Go edit (all edits), multi (116k lines, 100 packages): `go vet ./internal/settings`": noGoal,
				"daemon processing, Go": goalMet, "settle window, Go": noGoal, "hook process + socket, Go": noGoal, "overhead in all, Go": noGoal,
				"daemon RSS alone": goalMet, "daemon peak RSS": goalMet,
				"200 hooks at once: p99": goalMet, "200 hooks at once: failed": goalMet, "warm edit, Go": noGoal,
			},
		},
		{
			name: "goals not met",
			rep: report{
				json:   &jsonResult{hook: row{s: same(5, ms(40))}, version: row{s: same(5, ms(8))}},
				goRuns: []goResult{goRun(large, ms(200), ms(1500)), goRun(multi, ms(200), ms(1000))},
				langs:  []langResult{lang(ms(50), ms(20), ms(10))},
				load: &loadResult{idle: mem(1, 40_000), after: mem(1, 40_000), burst: burst(ms(1000), ms(3500)),
					timeout: 3},
			},
			want: map[string]verdictKind{
				"hook round trip": goalNotMet, "warm Go edit (type error), large": goalNotMet, "warm Go edit (fix), large": goalNotMet,
				"warm Go edit (type error), multi": goalNotMet, "warm Go edit (fix), multi": goalNotMet,
				"daemon processing, Go": goalNotMet, "settle window, Go": noGoal, "overhead in all, Go": noGoal,
				"daemon RSS alone": goalNotMet, "daemon peak RSS": goalNotMet,
				"200 hooks at once: p99": goalNotMet, "200 hooks at once: failed": goalNotMet,
			},
		},
		{
			name: "only the small module, a skipped language, a burst with failures",
			rep: report{
				goRuns: []goResult{goRun(small, ms(100), ms(2000))},
				langs:  []langResult{{spec: langSpecs[1], skipped: "pyright is not on PATH"}},
				load:   &loadResult{idle: mem(1, 20_000), burst: same(burstHooks-2, ms(100)), errs: 2},
			},
			want: map[string]verdictKind{
				"warm Go edit (type error), module ≥ 10k": notMeasured, "daemon processing, Python": notMeasured,
				"daemon RSS alone": goalMet, "daemon peak RSS": notMeasured,
				"200 hooks at once: p99": goalNotMet, "200 hooks at once: failed": goalNotMet,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := tt.rep.summary()
			for prefix, want := range tt.want {
				got, ok := verdictOf(rows, prefix)
				if !ok {
					t.Errorf("no row starting %q in %v", prefix, rows)
				} else if got != want {
					t.Errorf("%q: verdict %q, want %q", prefix, got, want)
				}
			}
			goals := 0
			for _, g := range rows {
				if g.goal != "" {
					goals++
				}
			}
			if goals < 8 {
				t.Errorf("%d rows with a goal, want every goal of issue 7 (≥ 8)", goals)
			}
		})
	}
}

// TestLargeGoRowsDetail checks that the multi-package module's first goal
// row says which package the edits go to and where it sits in the import
// graph, and that the single-package module's says nothing.
func TestLargeGoRowsDetail(t *testing.T) {
	run := func(ws *workspace) goResult {
		return goResult{ws: ws, hook: row{s: same(2, ms(10)), errS: same(1, ms(10)), fixS: same(1, ms(10))},
			build: row{errS: same(1, ms(50)), fixS: same(1, ms(500))}}
	}
	rows := largeGoRows([]goResult{
		run(&workspace{name: "yaml", lines: 11_000, graph: importGraph{packages: 1}}),
		run(&workspace{name: "gopls", lines: 116_000, pkg: "internal/settings", graph: importGraph{packages: 100, importers: 19, imports: 33}}),
	})
	var details []string
	for _, g := range rows {
		details = append(details, g.detail)
	}
	want := []string{"", "", "gopls: The edits go to ./internal/settings, which 19 of the module's 100 packages import (directly or not) and which imports 33 of them: in the middle of the import graph, neither a leaf nor the root of everything", ""}
	if strings.Join(details, "\n") != strings.Join(want, "\n") {
		t.Errorf("details:\n%q\nwant\n%q", details, want)
	}
}

// TestRecordBreakdown splits made-up log records of one run into the
// overhead's parts and checks each, and that (a) + (b) + (c) is the
// overhead in all whenever server_ms is logged.
func TestRecordBreakdown(t *testing.T) {
	const none = time.Duration(-1) // the row has no sample
	tests := []struct {
		name     string
		wall     time.Duration
		times    hookTimes
		window   time.Duration
		settleIn bool
		// want: server, overhead in all, (a) process, around, engine, (b) settle, (c) client, ipc, proc
		want    [9]time.Duration
		badWant int // runs the settle row marks wrong
	}{
		{
			name: "Go, settle window 15 ms", wall: ms(44), window: lsp.EditSettle,
			times: hookTimes{hook: 35, daemon: 33, server: 32, serverOnly: 16},
			want:  [9]time.Duration{ms(16), ms(28), ms(2), ms(1), ms(1), ms(15), ms(11), ms(2), ms(9)},
		},
		{
			name: "TypeScript, no settle window", wall: ms(23), window: 0,
			times: hookTimes{hook: 15, daemon: 13, server: 13, serverOnly: 13},
			want:  [9]time.Duration{ms(13), ms(10), 0, 0, 0, 0, ms(10), ms(2), ms(8)},
		},
		{
			name: "the log shows less than the window", wall: ms(30), window: lsp.EditSettle,
			times: hookTimes{hook: 25, daemon: 21, server: 20, serverOnly: 18},
			want:  [9]time.Duration{ms(18), ms(12), ms(-12), ms(-13), ms(1), ms(15), ms(9), ms(4), ms(5)}, badWant: 1,
		},
		{
			name: "no server_ms: settle counted in the server's", wall: ms(44), window: lsp.EditSettle, settleIn: true,
			times: hookTimes{hook: 35, daemon: 33, server: 32, serverOnly: -1},
			want:  [9]time.Duration{ms(32), ms(12), ms(1), none, ms(1), none, ms(11), ms(2), ms(9)},
		},
		{
			name: "no hook record", wall: ms(44), window: lsp.EditSettle,
			times: hookTimes{hook: -1, daemon: 33, server: 32, serverOnly: 16},
			want:  [9]time.Duration{ms(16), ms(28), ms(2), ms(1), ms(1), ms(15), ms(11), none, none},
		},
		{
			name: "no notify_change record", wall: ms(44), window: lsp.EditSettle,
			times: hookTimes{hook: 35, daemon: -1, server: 32, serverOnly: 16},
			want:  [9]time.Duration{ms(16), ms(28), none, none, none, none, none, none, none},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := langResult{breakdown: newBreakdown()}
			l.recordBreakdown(1, tt.wall, tt.times, tt.window)
			rows := []row{l.server, l.overhead, l.process, l.around, l.engine, l.settle, l.client, l.ipc, l.proc}
			for i, r := range rows {
				got := none
				if len(r.s) == 1 {
					got = r.s[0]
				} else if len(r.s) > 1 {
					t.Fatalf("row %d (%q): %d samples of one run", i, r.label, len(r.s))
				}
				if got != tt.want[i] {
					t.Errorf("row %d (%q) = %v, want %v", i, r.label, got, tt.want[i])
				}
			}
			if l.settleIn != tt.settleIn {
				t.Errorf("settleIn = %v, want %v", l.settleIn, tt.settleIn)
			}
			if l.settle.bad != tt.badWant {
				t.Errorf("settle row: %d wrong runs (%q), want %d", l.settle.bad, l.settle.badNote, tt.badWant)
			}
			if !tt.settleIn && len(l.process.s) == 1 {
				if sum := l.process.s[0] + l.settle.s[0] + l.client.s[0]; sum != l.overhead.s[0] {
					t.Errorf("(a) + (b) + (c) = %v, overhead in all %v", sum, l.overhead.s[0])
				}
			}
		})
	}
}

// TestOverheadRows checks the rows of the overhead in the summary: the
// goal row of the daemon's processing with its figure, then the settle
// window, the hook side against `lsp-hook version` when part 1 ran, and
// the overhead in all, none of them with a goal.
func TestOverheadRows(t *testing.T) {
	l := langResult{spec: langSpecs[0], hook: row{s: same(3, ms(44))}, breakdown: newBreakdown()}
	for range 3 {
		l.recordBreakdown(1, ms(44), hookTimes{hook: 35, daemon: 33, server: 32, serverOnly: 16}, lsp.EditSettle)
	}
	for _, c := range []struct {
		name    string
		version samples
		want    [][3]string // metric prefix, measured, ratio
	}{
		{"with part 1", same(3, ms(8)), [][3]string{
			{"daemon processing, Go:", "2.00 ms", "-"},
			{"settle window, Go:", "15.0 ms", "-"},
			{"hook process + socket, Go: p50 of (hook wall − daemon's elapsed_ms); ratio ÷ `lsp-hook version`", "11.0 ms", "1.38×"},
			{"overhead in all, Go:", "28.0 ms", "2.75×"},
		}},
		{"without part 1", nil, [][3]string{
			{"daemon processing, Go:", "2.00 ms", "-"},
			{"settle window, Go:", "15.0 ms", "-"},
			{"hook process + socket, Go: p50 of (hook wall − daemon's elapsed_ms)", "11.0 ms", "-"},
			{"overhead in all, Go:", "28.0 ms", "2.75×"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows := overheadRows([]langResult{l}, c.version)
			if len(rows) != len(c.want) {
				t.Fatalf("%d rows, want %d: %v", len(rows), len(c.want), rows)
			}
			for i, w := range c.want {
				g := rows[i]
				if !strings.HasPrefix(g.metric, w[0]) || g.measured != w[1] || g.ratio != w[2] {
					t.Errorf("row %d = %q %q %q, want %q… %q %q", i, g.metric, g.measured, g.ratio, w[0], w[1], w[2])
				}
				if wantGoal := i == 0; (g.goal != "") != wantGoal {
					t.Errorf("row %d %q: goal %q", i, g.metric, g.goal)
				}
			}
			if rows[0].verdict != goalMet || !strings.Contains(rows[0].detail, "around the server 1.00 ms") {
				t.Errorf("goal row: verdict %q, detail %q", rows[0].verdict, rows[0].detail)
			}
		})
	}
}

// TestStatTicks reads the CPU time fields of /proc/<pid>/stat lines, one
// with a command name holding spaces and parentheses.
func TestStatTicks(t *testing.T) {
	for _, c := range []struct {
		stat string
		want int64
	}{
		{"1234 (gopls) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 40 7 3 20 0 12 0 99 0 0", 300},
		{"99 (a (weird) name) R 1 99 99 0 -1 0 0 0 0 0 1 2 3 4 20 0 1 0 5 0 0", 10},
		{"99 (short) R 1 2", 0},
	} {
		if got := statTicks(c.stat); got != c.want {
			t.Errorf("statTicks(%q) = %d, want %d", c.stat, got, c.want)
		}
	}
}

func TestWrapText(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"one two three four", "  one two\n  three\n  four\n"},
		{"a ./internal/settings/settings.go:1793 b", "  a\n  ./internal/settings/settings.go:1793\n  b\n"},
		{"", ""},
	} {
		if got := wrapText(c.in, 10, "  "); got != c.want {
			t.Errorf("wrapText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUnderMB(t *testing.T) {
	for _, c := range []struct {
		kib  int64
		want bool
	}{{29_296, true}, {29_297, false}, {0, true}} { // 30 MB = 29,296.875 KiB
		if got := underMB(c.kib, 30); got != c.want {
			t.Errorf("underMB(%d KiB, 30) = %v, want %v", c.kib, got, c.want)
		}
	}
}

func TestMarkdownCells(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a | b", `a \| b`},
		{"two\nlines  here", "two lines here"},
		{"`go build ./...`", "`go build ./...`"},
	} {
		if got := mdCell(c.in); got != c.want {
			t.Errorf("mdCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestReproCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-bin", "/src/lsp-hook/bin/lsp-hook", "-md", "docs/benchmarks.md"}, "go run ./bench -bin bin/lsp-hook -md docs/benchmarks.md"},
		{[]string{"-bin=/src/lsp-hook/bin/lsp-hook", "-note", "a loaded VM", "-only", "json,load"}, "go run ./bench -bin=bin/lsp-hook -only json,load"},
		{[]string{"-note=shared", "-demo", "/tmp/my demo", "-module", "it's"}, `go run ./bench -demo '/tmp/my demo' -module 'it'\''s'`},
		{[]string{"-langs-dir", "/src/lsp-hook", "-bin", "/elsewhere/lsp-hook"}, "go run ./bench -langs-dir . -bin /elsewhere/lsp-hook"},
	} {
		if got := reproCommand("/src/lsp-hook", c.args); got != c.want {
			t.Errorf("reproCommand(%q)\n got %s\nwant %s", c.args, got, c.want)
		}
	}
}

// TestWriteMarkdown checks the page's parts: the note, the command, the
// machine table, one summary line per row with its verdict, and the
// sections as preformatted text.
func TestWriteMarkdown(t *testing.T) {
	rep := report{
		machine: machine{cpus: 2, cpuModel: "Test CPU", memory: "1.0 GiB", kernel: "6.1", load: "1.00 1.00 1.00",
			endLoad: "2.00 1.50 1.00", goVer: "go1.26", lspHook: "lsp-hook devel", tools: map[string]string{"go": "gopls v0.23.0"}},
		json: &jsonResult{ws: &workspace{name: "demo"}, hook: row{s: same(3, ms(40))}, version: row{s: same(3, ms(8))},
			lint: "ERROR [3:5] trailing comma"},
		load: &loadResult{idle: memRow{daemon: procMem{pid: 1, rss: 20_480}}, burst: same(burstHooks, ms(100)), wrong: 3,
			tally: []string{"wrong answer, hooks by file kind: Go 3"}},
	}
	var buf bytes.Buffer
	rep.writeMarkdown(&buf, mdDoc{repro: "go run ./bench -bin bin/lsp-hook", note: "a shared, loaded 2-core machine"})
	page := buf.String()
	for _, want := range []string{
		"# lsp-hook benchmarks\n",
		"**Note:** a shared, loaded 2-core machine\n",
		"```sh\ngo run ./bench -bin bin/lsp-hook\n```\n",
		"| CPU | Test CPU, 2 logical CPUs |\n",
		"| Go tools | gopls v0.23.0 |\n",
		"| metric | measured | baseline | ratio | goal | verdict |\n| --- | --- | --- | --- | --- | --- |\n",
		"| hook round trip, JSON edit, daemon warm: hook p50 ÷ `lsp-hook version` p50 | 40.0 ms | 8.00 ms | 5.00× | ≤ 3× | **NOT met** |\n",
		"| daemon RSS alone, 4 servers active | 20.0 MiB | - | - | ≤ 30 MB (28.6 MiB) | met |\n",
		"| 200 hooks at once: failed · timed out · wrong answer | 0 · 0 · 3 | - | - | 0 · 0 · 0 | **NOT met** |\n",
		"\n- 200 hooks at once: wrong answer, hooks by file kind: Go 3\n",
		"```text\nWall time of each process",
		"answer (first run): ERROR [3:5] trailing comma\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	if n := strings.Count(page, "```"); n%2 != 0 {
		t.Errorf("%d code fences: one is left open", n)
	}
}
