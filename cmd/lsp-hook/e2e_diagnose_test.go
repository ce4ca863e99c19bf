package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

// finding is one diagnostic as every output format can express it: the
// root-relative file, line, severity and the start of the message. Columns
// are compared separately: GitHub annotations leave them out of ranges that
// span lines.
type finding struct {
	file     string
	line     int
	severity string
	msg      string // the first 12 characters
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d %s %q", f.file, f.line, f.severity, f.msg)
}

func newFinding(file string, line int, severity, msg string) finding {
	if r := []rune(msg); len(r) > 12 {
		msg = string(r[:12])
	}
	return finding{file, line, strings.ToLower(severity), msg}
}

// wantDiagnose is what testdata/diagnose holds: one error per checker.
var wantDiagnose = []finding{
	newFinding("data/bad.json", 3, "error", "expected a value"),
	newFinding("data/bad.toml", 3, "error", "expected value"),
	newFinding("data/bad.yaml", 2, "error", "did not find"),
	newFinding("go/main.go", 6, "error", `cannot use "seven"`),
	newFinding("py/stats.py", 2, "error", `Type "Literal`),
	newFinding("scripts/deploy.sh", 2, "error", "Couldn't find"),
	newFinding("scripts/deploy.sh", 2, "error", "Couldn't parse"),
	newFinding("scripts/deploy.sh", 4, "error", "Expected 'fi' matching"),
	newFinding("scripts/deploy.sh", 4, "error", "Expected 'fi'. Fix"),
	newFinding("ts/src/count.ts", 2, "error", "Type 'string'"),
}

// TestDiagnose runs `lsp-hook diagnose` over testdata/diagnose with real
// language servers, validators and shellcheck, in every output format: each
// must exit 1 and report exactly the known errors, nothing from the
// git-ignored folder.
func TestDiagnose(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	for _, exe := range []string{"gopls", "pyright-langserver", "typescript-language-server", "shellcheck"} {
		requireExe(t, exe)
	}
	w := newWorkspaceOf(t, "diagnose", "", []string{"PATH=" + langPath()})
	summary := filepath.Join(t.TempDir(), "summary.md")
	outputs := map[string]string{}
	for _, format := range []string{"text", "json", "sarif", "github", "rdjsonl", "lint"} {
		r := w.run("", []string{"GITHUB_STEP_SUMMARY=" + summary}, "diagnose", "--no-daemon", "--format", format)
		if r.exit != 1 {
			t.Fatalf("diagnose --format %s exited %d, want 1; stderr:\n%s", format, r.exit, r.stderr)
		}
		if !strings.Contains(r.stderr, "10 files checked") || !strings.Contains(r.stderr, "10 errors") {
			t.Errorf("--format %s: stderr lacks the count:\n%s", format, r.stderr)
		}
		outputs[format] = r.stdout
		got := findings(t, format, r.stdout)
		if !slices.Equal(got, wantDiagnose) {
			t.Errorf("--format %s found:\n%v\nwant:\n%v\noutput:\n%s", format, got, wantDiagnose, r.stdout)
		}
	}
	// Line text from the files: every SARIF result has GitHub's line hash,
	// as upload-sarif would compute it from the checkout, and one whose
	// region is not empty its snippet.
	var sarif struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string
				Locations           []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine, StartColumn, EndLine, EndColumn int
							Snippet                                    *struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(outputs["sarif"]), &sarif); err != nil {
		t.Fatal(err)
	}
	snippets := 0
	for i, r := range sarif.Runs[0].Results {
		rg := r.Locations[0].PhysicalLocation.Region
		empty := rg.EndLine == rg.StartLine && rg.EndColumn == rg.StartColumn
		if r.PartialFingerprints["primaryLocationLineHash"] == "" || (!empty && rg.Snippet == nil) {
			t.Errorf("SARIF result %d has no line hash, or no snippet for its region: %+v", i, r)
		}
		if rg.Snippet != nil {
			snippets++
		}
	}
	if snippets == 0 {
		t.Errorf("no SARIF result has a snippet")
	}
	// The real sarif-multitool (make tools: tools/ci) finds nothing to say
	// under the SARIF rules or GitHub code scanning's own (GH2012 and co).
	for _, kind := range []string{"Sarif", "Gh"} {
		if problems := sarifMultitool(t, outputs["sarif"], kind); len(problems) > 0 {
			t.Errorf("sarif-multitool validate --rule-kind %s: %d results:\n%s", kind, len(problems), strings.Join(problems, "\n"))
		}
	}
	if md, err := os.ReadFile(summary); err != nil || strings.Count(string(md), "# lsp-hook diagnose") != 6 ||
		!strings.Contains(string(md), "go/main.go:6:14") {
		t.Errorf("step summary (err %v):\n%s", err, md)
	}

	t.Run("through the daemon", func(t *testing.T) {
		defer w.use(t)()
		if r := w.run("", nil, "notify", "data/ok.json"); r.exit != 0 { // starts the daemon
			t.Fatalf("notify exited %d: %s", r.exit, r.stderr)
		}
		if _, ok := w.status(); !ok {
			t.Fatal("no daemon after notify")
		}
		r := w.run("", nil, "diagnose", "--format", "text")
		if r.exit != 1 || r.stdout != outputs["text"] {
			t.Errorf("through the daemon: exit %d, output:\n%s\nwant the in-process output:\n%s\nstderr:\n%s",
				r.exit, r.stdout, outputs["text"], r.stderr)
		}
		if log, _ := w.logSince(0); !strings.Contains(log, "source=diagnose") {
			t.Errorf("the daemon's log shows no diagnose request")
		}
	})

	for _, tt := range []struct {
		name string
		args []string
		exit int
		want string // in stdout (text format)
	}{
		{"clean file", []string{"data/ok.json"}, 0, ""},
		{"an ignored file named explicitly is checked", []string{"ignored/bad.json"}, 1, "ignored/bad.json:2:1: error:"},
		{"glob", []string{"data/*.toml"}, 1, "data/bad.toml:3:11: error:"},
		{"a fixture is checked with --fixtures", []string{"--fixtures", "data"}, 1, "data/testdata/broken.json:1:33: error:"},
		{"a fixture directory named is checked", []string{"data/testdata"}, 1, "data/testdata/broken.json:1:33: error:"},
		{"a glob into a fixture directory is checked", []string{"data/testdata/*.json"}, 1, "data/testdata/broken.json:1:33: error:"},
		{"a glob over fixtures skips them", []string{"data/**/broken.json"}, 2, ""}, // selects nothing checkable: a typo, not a clean run
		{"warnings threshold", []string{"--severity", "warning", "data/ok.json"}, 0, ""},
		{"bad shard", []string{"--shard", "3/2"}, 2, ""},
		{"--issues-exit-code chosen", []string{"--issues-exit-code", "3", "data/*.toml"}, 3, "data/bad.toml:3:11: error:"},
		{"--issues-exit-code 0", []string{"--issues-exit-code", "0", "data/*.toml"}, 0, "data/bad.toml:3:11: error:"},
		{"--issues-exit-code on a clean file", []string{"--issues-exit-code", "3", "data/ok.json"}, 0, ""},
		{"--issues-exit-code out of range", []string{"--issues-exit-code", "300", "data/ok.json"}, 2, ""},
		{"path outside the workspace", []string{"/etc/hostname"}, 2, ""},
		{"missing path", []string{"nope.json"}, 2, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer w.use(t)()
			r := w.run("", nil, append([]string{"diagnose", "--no-daemon"}, tt.args...)...)
			if r.exit != tt.exit || !strings.Contains(r.stdout, tt.want) {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", r.exit, tt.exit, r.stdout, r.stderr)
			}
		})
	}

	t.Run("shards cover every file once", func(t *testing.T) {
		defer w.use(t)()
		var all []finding
		for k := 1; k <= 3; k++ {
			r := w.run("", nil, "diagnose", "--no-daemon", "--shard", fmt.Sprintf("%d/3", k))
			all = append(all, findings(t, "text", r.stdout)...)
		}
		slices.SortFunc(all, func(a, b finding) int { return strings.Compare(a.String(), b.String()) })
		if !slices.Equal(all, wantDiagnose) {
			t.Errorf("three shards found:\n%v\nwant:\n%v", all, wantDiagnose)
		}
	})
}

var (
	textLineRE   = regexp.MustCompile(`^(.+?):(\d+):(?:\d+:)? (error|warning|info|hint): (.*)$`)
	githubLineRE = regexp.MustCompile(`^::(error|warning|notice) file=([^,]+),line=(\d+)[^:]*::(.*)$`)
	lintDiagRE   = regexp.MustCompile(`^(ERROR|WARN|INFO|HINT) \[(\d+):\d+\] (.*)$`)
)

// findings reads the diagnostics out of one output format, sorted.
func findings(t *testing.T, format, out string) []finding {
	t.Helper()
	var fs []finding
	switch format {
	case "text":
		for _, l := range lines(out) {
			m := textLineRE.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("text line %q", l)
			}
			n, _ := strconv.Atoi(m[2])
			fs = append(fs, newFinding(m[1], n, m[3], m[4]))
		}
	case "json":
		var rep diag.JSONReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("json output: %v", err)
		}
		for _, f := range rep.Files {
			for _, d := range f.Diagnostics {
				fs = append(fs, newFinding(f.Rel, d.Line, d.Severity.String(), d.Message))
			}
		}
	case "sarif":
		var log struct {
			Runs []struct {
				Results []struct {
					Level     string
					Message   struct{ Text string }
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           struct{ StartLine int }
						}
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil {
			t.Fatalf("sarif output: %v", err)
		}
		for _, r := range log.Runs[0].Results {
			loc := r.Locations[0].PhysicalLocation
			fs = append(fs, newFinding(loc.ArtifactLocation.URI, loc.Region.StartLine, r.Level, r.Message.Text))
		}
	case "github":
		for _, l := range lines(out) {
			m := githubLineRE.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("github line %q", l)
			}
			n, _ := strconv.Atoi(m[3])
			fs = append(fs, newFinding(m[2], n, m[1], m[4]))
		}
	case "rdjsonl":
		for _, l := range lines(out) {
			var d struct {
				Message  string
				Severity string
				Location struct {
					Path  string
					Range struct{ Start struct{ Line int } }
				}
			}
			if err := json.Unmarshal([]byte(l), &d); err != nil {
				t.Fatalf("rdjsonl line %q: %v", l, err)
			}
			fs = append(fs, newFinding(d.Location.Path, d.Location.Range.Start.Line, d.Severity, d.Message))
		}
	case "lint":
		file := ""
		for _, l := range lines(out) {
			if f, ok := strings.CutPrefix(l, `<diagnostics file="`); ok {
				file = strings.TrimSuffix(f, `">`)
			} else if m := lintDiagRE.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[2])
				fs = append(fs, newFinding(file, n, map[string]string{"ERROR": "error", "WARN": "warning"}[m[1]], m[3]))
			}
		}
	}
	slices.SortFunc(fs, func(a, b finding) int { return strings.Compare(a.String(), b.String()) })
	return fs
}

func lines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if sc.Text() != "" {
			out = append(out, sc.Text())
		}
	}
	return out
}

// TestParse runs `lsp-hook parse` on tool output: format detection, paths
// taken from --dir, columns converted with the file's text, exit codes.
func TestParse(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	w := newWorkspaceOf(t, "diagnose", "", nil)
	w.writeFile("go/wide.go", "package main\n\nvar s = \"日本\"; var n int = \"x\"\n")
	for _, tt := range []struct {
		name, stdin string
		args        []string
		exit        int
		want        string
	}{
		{"go build, auto, byte columns to characters", "# example.com/diag\n./wide.go:3:30: cannot use \"x\" (untyped string constant) as int value\n",
			[]string{"--dir", "go"}, 1, "go/wide.go:3:26: error: cannot use \"x\""},
		{"named format, github output", "./wide.go:3:30: cannot use \"x\"\n",
			[]string{"--dir", "go", "--format", "github", "go-build"}, 1, "::error file=go/wide.go,line=3,col=26,title=go-build::cannot use \"x\""},
		{"errorformat", "wide.go|3| odd\n", []string{"--dir", "go", "--efm", "%f|%l| %m"}, 1, "go/wide.go:3: error: odd"},
		{"rdjsonl: byte columns again, as reviewdog's proto says", "./wide.go:3:30: cannot use \"x\"\n",
			[]string{"--dir", "go", "--format", "rdjsonl", "go-build"}, 1, `"start":{"line":3,"column":30}`},
		{"--issues-exit-code", "./wide.go:3:30: cannot use \"x\"\n", []string{"--dir", "go", "--issues-exit-code", "4", "go-build"}, 4, "go/wide.go:3:26"},
		{"nothing found", "", []string{"go-vet"}, 0, ""},
		{"below the threshold", "a.go:1:1: warning: meh\n", []string{"gcc"}, 0, ""},
		{"unknown format", "", []string{"gcc-ish"}, 2, ""},
		{"garbage for a JSON format", "not json", []string{"eslint"}, 2, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer w.use(t)()
			r := w.run(tt.stdin, nil, append([]string{"parse"}, tt.args...)...)
			if r.exit != tt.exit || !strings.Contains(r.stdout, tt.want) {
				t.Errorf("exit %d, want %d; stdout:\n%s\nwant it to contain %q; stderr:\n%s", r.exit, tt.exit, r.stdout, tt.want, r.stderr)
			}
		})
	}
}

// sarifMultitool runs `sarif-multitool validate --rule-kind kind` on log
// (at its default levels, error and warning) and returns each result it
// reports as "ruleId: arguments".
func sarifMultitool(t *testing.T, log, kind string) []string {
	t.Helper()
	exe := filepath.Join(moduleRoot, ".tools", "ci", "node_modules", ".bin", "sarif-multitool")
	if _, err := os.Stat(exe); err != nil {
		if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
			t.Fatalf("sarif-multitool is not installed (make tools): %v", err)
		}
		t.Skipf("sarif-multitool is not installed (make tools installs it into .tools/ci): %v", err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.sarif"), filepath.Join(dir, "out.sarif")
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "validate", "--rule-kind", kind, "--log", "ForceOverwrite", "-o", out, in)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sarif-multitool validate: %v\n%s", err, b)
	}
	var v struct {
		Runs []struct {
			Results []struct {
				RuleID  string
				Message struct{ Arguments []string }
			}
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("sarif-multitool's own log: %v", err)
	}
	var problems []string
	for _, run := range v.Runs {
		for _, r := range run.Results {
			problems = append(problems, r.RuleID+": "+strings.Join(r.Message.Arguments, ", "))
		}
	}
	return problems
}
