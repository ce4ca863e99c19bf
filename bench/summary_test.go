package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
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
// goal row's verdict: the figures are synthetic, nothing here is timed.
func TestSummaryVerdicts(t *testing.T) {
	large := &workspace{name: "large", lines: 12_000}
	small := &workspace{name: "demo", lines: 200}
	goRun := func(ws *workspace, hook, build time.Duration) goResult {
		return goResult{ws: ws, hook: row{errS: same(5, hook), fixS: same(5, hook)}, build: row{errS: same(5, build), fixS: same(5, build)}}
	}
	lang := func(hook, server, overhead time.Duration) langResult {
		return langResult{spec: langSpecs[0], hook: row{s: same(5, hook)}, server: row{s: same(5, server)}, overhead: row{s: same(5, overhead)}}
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
				"daemon overhead": notMeasured, "daemon RSS alone": notMeasured, "daemon peak RSS": notMeasured,
				"200 hooks at once: p99": notMeasured, "200 hooks at once: failed": notMeasured,
			},
		},
		{
			name: "goals met",
			rep: report{
				json:   &jsonResult{hook: row{s: same(5, ms(20))}, version: row{s: same(5, ms(8))}},
				goRuns: []goResult{goRun(small, ms(100), ms(150)), goRun(large, ms(100), ms(1500))},
				langs:  []langResult{lang(ms(40), ms(37), ms(3))},
				load: &loadResult{idle: mem(1, 20_000), after: mem(1, 25_000), burst: burst(ms(1000), ms(2500)),
					seq: row{s: same(50, ms(50))}},
			},
			want: map[string]verdictKind{
				"hook round trip": goalMet, "warm Go edit (type error), 12k-line": goalMet, "warm Go edit (fix)": goalMet,
				"daemon overhead, Go": goalMet, "daemon RSS alone": goalMet, "daemon peak RSS": goalMet,
				"200 hooks at once: p99": goalMet, "200 hooks at once: failed": goalMet, "warm edit, Go": noGoal,
			},
		},
		{
			name: "goals not met",
			rep: report{
				json:   &jsonResult{hook: row{s: same(5, ms(40))}, version: row{s: same(5, ms(8))}},
				goRuns: []goResult{goRun(large, ms(200), ms(1500))},
				langs:  []langResult{lang(ms(50), ms(40), ms(10))},
				load: &loadResult{idle: mem(1, 40_000), after: mem(1, 40_000), burst: burst(ms(1000), ms(3500)),
					timeout: 3},
			},
			want: map[string]verdictKind{
				"hook round trip": goalNotMet, "warm Go edit (type error)": goalNotMet, "warm Go edit (fix)": goalNotMet,
				"daemon overhead, Go": goalNotMet, "daemon RSS alone": goalNotMet, "daemon peak RSS": goalNotMet,
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
				"warm Go edit (type error), module ≥ 10k": notMeasured, "daemon overhead, Python": notMeasured,
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
